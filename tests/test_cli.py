"""The command line as users and tools see it: exit codes, options, output formats, BG000.

Every test runs ``bgcheck.cli.main`` through click's ``CliRunner`` inside a
fresh project in ``tmp_path`` (the working directory), so reported paths
are short and relative. Tests that need a real terminal run the CLI in a
subprocess on a pseudo-terminal.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

import bgcheck
from bgcheck.cli import main
from bgcheck.rules import all_rules

REPO = Path(__file__).resolve().parent.parent

# One finding each of BG105 (line 6), BG102 (line 12) and BG103 (line 19).
THREE_FINDINGS = """\
import asyncio

async def consume(queue):
    try:
        await queue.get()
    except asyncio.CancelledError:
        pass

async def poll(client):
    try:
        await client.fetch()
    except:
        pass

async def total(client):
    try:
        return await client.count()
    finally:
        return 0
"""

CLEAN = """\
import asyncio

async def consume(queue):
    try:
        await queue.get()
    except asyncio.CancelledError:
        raise
"""

LINE_FORMAT = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<code>BG\d{3}) (?P<message>.+)$")


# ---------------------------------------------------------------------------
# helpers


def project(root: Path, files: dict[str, str | bytes], config: str | None = "") -> Path:
    """Write files (text is dedented) and, unless ``config`` is None, a pyproject.toml
    whose ``[tool.bgcheck]`` table holds ``config``."""
    root.mkdir(parents=True, exist_ok=True)
    if config is not None:
        (root / "pyproject.toml").write_text("[tool.bgcheck]\npreview = true\n" + textwrap.dedent(config), encoding="utf-8")
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content), encoding="utf-8")
    return root


class Result:
    def __init__(self, raw) -> None:
        self.raw = raw
        self.exit_code = raw.exit_code
        self.stdout = raw.stdout
        self.stderr = raw.stderr

    def json(self) -> dict:
        return json.loads(self.stdout)

    def found(self) -> list[tuple[str, int, str]]:
        return [(d["path"], d["line"], d["code"]) for d in self.json()["diagnostics"]]

    def codes(self) -> list[str]:
        return [d["code"] for d in self.json()["diagnostics"]]


def bgcheck_cli(*args: str, env: dict | None = None) -> Result:
    raw = CliRunner().invoke(main, list(args), env=env, catch_exceptions=True)
    # Everything the CLI does ends in sys.exit; any other exception is a crash of the test's making.
    assert raw.exception is None or isinstance(raw.exception, SystemExit), raw.exc_info
    return Result(raw)


def check_json(*args: str, env: dict | None = None) -> Result:
    return bgcheck_cli("check", *args, "--format", "json", env=env)


@pytest.fixture
def in_tmp(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def three(in_tmp) -> Path:
    """A project with one BG105, one BG102 and one BG103 in ``app.py``."""
    return project(in_tmp, {"app.py": THREE_FINDINGS})


# ---------------------------------------------------------------------------
# exit codes


def test_exit_0_when_clean(in_tmp):
    project(in_tmp, {"app.py": CLEAN})
    result = bgcheck_cli("check", ".")
    assert result.exit_code == 0
    assert result.stdout == "All checks passed (1 file checked).\n"
    assert result.stderr == ""


def test_exit_1_with_findings(three):
    result = bgcheck_cli("check", ".")
    assert result.exit_code == 1
    assert result.stderr == ""


def test_exit_zero_turns_findings_into_0(three):
    result = bgcheck_cli("check", ".", "--exit-zero")
    assert result.exit_code == 0
    assert "BG105" in result.stdout  # still reported


def test_default_path_is_the_current_folder(three):
    assert check_json().found() == check_json(".").found()


def test_usage_error_exits_2(three):
    result = bgcheck_cli("check", "--no-such-option")
    assert result.exit_code == 2
    assert "No such option" in result.stderr


def test_usage_error_names_the_command_under_python_m(three):
    """``python -m bgcheck`` says ``bgcheck check --help``, not ``bgcheck -m bgcheck check``."""
    done = subprocess.run([sys.executable, "-m", "bgcheck", "check", "--no-such-option"], cwd=three, capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "bgcheck: error: No such option '--no-such-option'. Did you mean '--no-show-explanations'? (see `bgcheck check --help`)"
    ]


@pytest.mark.parametrize("args", [(), ("--exit-zero",)])
def test_config_error_exits_2_even_with_exit_zero(three, args):
    (three / "pyproject.toml").write_text("[tool.bgcheck]\nreplicas = 0\n", encoding="utf-8")
    result = bgcheck_cli("check", ".", *args)
    assert result.exit_code == 2
    assert result.stdout == ""


def test_missing_path_exits_2_with_one_line(in_tmp):
    result = bgcheck_cli("check", "does-not-exist")
    assert result.exit_code == 2
    assert result.stderr == "bgcheck: error: no such file or folder: does-not-exist\n"
    assert result.stdout == ""


def test_missing_path_among_good_ones_still_exits_2(three):
    result = bgcheck_cli("check", "app.py", "nope.py")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "nope.py" in result.stderr
    assert "Traceback" not in result.stderr


# ---------------------------------------------------------------------------
# --select / --ignore


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((), ["BG105", "BG102", "BG103"]),
        (("--select", "BG105"), ["BG105"]),
        (("--select", "bg101"), ["BG105"]),  # codes are case-insensitive
        (("--select", "BG105,BG103"), ["BG105", "BG103"]),
        (("--select", "BG105, BG103"), ["BG105", "BG103"]),
        (("--select", "BG105", "--select", "BG103"), ["BG105", "BG103"]),
        (("--select", "BG1"), ["BG105", "BG102", "BG103"]),  # a prefix
        (("--select", "BG10"), ["BG105", "BG102", "BG103"]),
        (("--select", "BG2"), []),
        (("--select", "ALL"), ["BG105", "BG102", "BG103"]),
        (("--ignore", "BG102"), ["BG105", "BG103"]),
        (("--ignore", "BG105,BG103"), ["BG102"]),
        (("--ignore", "BG105", "--ignore", "BG103"), ["BG102"]),
        (("--ignore", "BG1"), []),
        (("--select", "BG1", "--ignore", "BG102"), ["BG105", "BG103"]),
        (("--select", "BG105", "--ignore", "BG105"), []),  # ignore wins
    ],
)
def test_select_and_ignore(three, args, expected):
    result = check_json(*args)
    assert result.codes() == expected
    assert result.exit_code == (1 if expected else 0)


@pytest.mark.parametrize("option", ["--select", "--ignore"])
@pytest.mark.parametrize("code", ["BG999", "BG9", "XYZ", "E501", "BG1O1"])
def test_unknown_code_exits_2(three, option, code):
    result = bgcheck_cli("check", ".", option, code)
    assert result.exit_code == 2
    assert f"unknown rule code {code!r}" in result.stderr
    assert option in result.stderr
    assert result.stdout == ""


def test_unknown_code_in_a_list_exits_2(three):
    result = bgcheck_cli("check", ".", "--select", "BG105,BG777")
    assert result.exit_code == 2
    assert "'BG777'" in result.stderr


def test_cli_select_replaces_configured_select(three):
    (three / "pyproject.toml").write_text('[tool.bgcheck]\npreview = true\nselect = ["BG105"]\n', encoding="utf-8")
    assert check_json().codes() == ["BG105"]
    assert check_json("--select", "BG103").codes() == ["BG103"]


def test_cli_ignore_adds_to_configured_ignore(three):
    (three / "pyproject.toml").write_text('[tool.bgcheck]\npreview = true\nignore = ["BG105"]\n', encoding="utf-8")
    assert check_json().codes() == ["BG102", "BG103"]
    assert check_json("--ignore", "BG103").codes() == ["BG102"]


# ---------------------------------------------------------------------------
# configuration


def test_bad_toml_exits_2_naming_the_file(three):
    (three / "pyproject.toml").write_text("[tool.bgcheck]\nreplicas = \n", encoding="utf-8")
    result = bgcheck_cli("check", ".")
    assert result.exit_code == 2
    assert result.stderr.startswith("bgcheck: error: pyproject.toml: invalid TOML")
    assert "line 2" in result.stderr
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_unknown_key_exits_2_with_a_suggestion(three):
    (three / "pyproject.toml").write_text("[tool.bgcheck]\nreplica = 3\n", encoding="utf-8")
    result = bgcheck_cli("check", ".")
    assert result.exit_code == 2
    assert result.stderr == (
        "bgcheck: error: pyproject.toml: [tool.bgcheck] unknown key 'replica' (did you mean 'replicas'?)\n"
    )


def test_bad_duration_exits_2_naming_file_and_key(three):
    (three / "pyproject.toml").write_text('[tool.bgcheck]\npreview = true\ngrace-period = "30 sec"\n', encoding="utf-8")
    result = bgcheck_cli("check", ".")
    assert result.exit_code == 2
    message = result.stderr
    assert message.startswith("bgcheck: error: pyproject.toml: [tool.bgcheck] grace-period: expected a duration")
    assert "'30 sec'" in message
    assert message.count("\n") == 1


def test_unknown_code_in_config_exits_2(three):
    (three / "pyproject.toml").write_text('[tool.bgcheck]\npreview = true\nselect = ["BG999"]\n', encoding="utf-8")
    result = bgcheck_cli("check", ".")
    assert result.exit_code == 2
    assert "pyproject.toml: [tool.bgcheck] select: unknown rule code 'BG999'" in result.stderr


def test_config_error_in_a_subtable_names_the_subtable(three):
    (three / "pyproject.toml").write_text('[tool.bgcheck.runtimes]\nnightly = "soon"\n', encoding="utf-8")
    result = bgcheck_cli("check", ".")
    assert result.exit_code == 2
    assert "pyproject.toml: [tool.bgcheck.runtimes] nightly: expected a duration" in result.stderr


def test_explicit_config_wins_over_discovery(three):
    (three / "pyproject.toml").write_text('[tool.bgcheck]\npreview = true\nselect = ["BG105"]\n', encoding="utf-8")
    (three / "ci").mkdir()
    (three / "ci" / "bgcheck.toml").write_text('preview = true\nselect = ["BG103"]\n', encoding="utf-8")
    assert check_json().codes() == ["BG105"]
    assert check_json(".", "--config", "ci/bgcheck.toml").codes() == ["BG103"]


def test_explicit_config_errors_name_that_file(three):
    (three / "strict.toml").write_text("replicas = 0\n", encoding="utf-8")
    result = bgcheck_cli("check", ".", "--config", "strict.toml")
    assert result.exit_code == 2
    assert result.stderr == "bgcheck: error: strict.toml: replicas: expected a positive integer, got 0\n"


def test_explicit_config_that_does_not_exist_exits_2(three):
    result = bgcheck_cli("check", ".", "--config", "missing.toml")
    assert result.exit_code == 2
    assert result.stderr.startswith("bgcheck: error: missing.toml: cannot read")


def test_bgcheck_toml_is_discovered_from_the_checked_folder(in_tmp):
    project(in_tmp / "svc", {"app.py": THREE_FINDINGS}, config=None)
    (in_tmp / "svc" / "bgcheck.toml").write_text('preview = true\nignore = ["BG102"]\n', encoding="utf-8")
    assert check_json("svc").codes() == ["BG105", "BG103"]


def test_per_file_ignores(in_tmp):
    project(
        in_tmp,
        {"app.py": THREE_FINDINGS, "legacy/old.py": THREE_FINDINGS},
        config="""
        [tool.bgcheck.per-file-ignores]
        "legacy/*" = ["BG105", "BG103"]
        """,
    )
    assert check_json().found() == [
        ("app.py", 6, "BG105"),
        ("app.py", 12, "BG102"),
        ("app.py", 19, "BG103"),
        ("legacy/old.py", 12, "BG102"),
    ]


# ---------------------------------------------------------------------------
# the JSON format


def test_json_document_shape(three):
    document = check_json().json()
    assert set(document) == {"version", "diagnostics", "summary"}
    assert document["version"] == bgcheck.__version__
    assert document["summary"] == {
        "files_checked": 1,
        "total": 3,
        "errors": 3,
        "warnings": 0,
        "infos": 0,
        "by_code": {"BG105": 1, "BG102": 1, "BG103": 1},
    }


def test_json_diagnostic_shape(three):
    for diagnostic in check_json().json()["diagnostics"]:
        assert set(diagnostic) == {
            "code", "name", "severity", "message", "path", "line", "column", "end_line", "end_column", "related", "fix", "explanation",
        }
        fix = diagnostic["fix"]
        assert fix is None or (set(fix) == {"applicability", "message", "edits"} and fix["applicability"] in ("safe", "unsafe"))
        for key in ("code", "name", "severity", "message", "path", "explanation"):
            assert isinstance(diagnostic[key], str) and diagnostic[key]
        for key in ("line", "column", "end_line", "end_column"):
            assert type(diagnostic[key]) is int and diagnostic[key] >= 1
        assert (diagnostic["end_line"], diagnostic["end_column"]) > (diagnostic["line"], diagnostic["column"])
        assert diagnostic["severity"] in ("error", "warning", "info")
        assert isinstance(diagnostic["related"], list)


def test_json_positions_are_one_based_and_end_exclusive(three):
    bg101 = check_json().json()["diagnostics"][0]
    # line 6 is "    except asyncio.CancelledError:"; the span covers `except asyncio.CancelledError`
    assert (bg101["code"], bg101["line"], bg101["column"]) == ("BG105", 6, 5)
    assert (bg101["end_line"], bg101["end_column"]) == (6, 34)
    line = THREE_FINDINGS.splitlines()[bg101["line"] - 1]
    assert line[bg101["column"] - 1 : bg101["end_column"] - 1] == "except asyncio.CancelledError"


def test_json_names_and_severities_match_the_rules(three):
    by_code = {rule.code: rule for rule in all_rules()}
    for diagnostic in check_json().json()["diagnostics"]:
        rule = by_code[diagnostic["code"]]
        assert diagnostic["name"] == rule.name
        assert diagnostic["severity"] == rule.severity.value


def test_json_related_entries(in_tmp):
    """Related locations (here the call chain BG601 follows to the payment SDK) have their own fixed shape."""
    project(
        in_tmp,
        {
            "payouts.py": """\
            import threading

            import stripe


            def pay_out(payout):
                stripe.Transfer.create(amount=payout.amount, currency="eur", destination=payout.account)


            def settle(payouts):
                for payout in payouts:
                    threading.Thread(target=pay_out, args=(payout,)).start()
            """
        },
    )
    (diagnostic,) = check_json().json()["diagnostics"]
    assert (diagnostic["code"], diagnostic["line"]) == ("BG601", 12)
    assert diagnostic["related"], "BG601 names the chain that moves money"
    for related in diagnostic["related"]:
        assert set(related) == {"path", "line", "column", "end_line", "end_column", "message"}
        assert related["path"] == "payouts.py"
        for key in ("line", "column", "end_line", "end_column"):
            assert type(related[key]) is int and related[key] >= 1
        assert isinstance(related["message"], str) and related["message"]
    assert [r["message"] for r in diagnostic["related"]] == ["-> pay_out()", "-> stripe.Transfer.create"]


def test_json_related_entries_from_the_reporter():
    """The reporter writes each related location with its own keys, whatever rule made it."""
    from bgcheck.diagnostics import Diagnostic, Location, Severity
    from bgcheck.run.engine import RunResult
    from bgcheck.report import REPORTERS, ReportOptions

    diagnostic = Diagnostic(
        code="BG406",
        name="shutdown-budget-exceeded",
        severity=Severity.ERROR,
        message="too long",
        location=Location("w.py", 3, 1, 3, 9),
        related=(Location("w.py", 7, 5, 7, 23, "join(20)"), Location("w.py", 8, 5, 8, 23, "join(20)")),
    )
    document = json.loads(REPORTERS["json"](RunResult(diagnostics=[diagnostic], files_checked=1), ReportOptions()))
    assert document["diagnostics"][0]["related"] == [
        {"path": "w.py", "line": 7, "column": 5, "end_line": 7, "end_column": 23, "message": "join(20)"},
        {"path": "w.py", "line": 8, "column": 5, "end_line": 8, "end_column": 23, "message": "join(20)"},
    ]


def test_json_is_clean_json_even_when_nothing_is_found(in_tmp):
    project(in_tmp, {"app.py": CLEAN})
    result = check_json()
    assert result.exit_code == 0
    assert result.json()["diagnostics"] == []
    assert result.json()["summary"]["total"] == 0


def test_json_has_no_colour_even_when_asked(three):
    result = check_json("--color", "always")
    assert "\x1b[" not in result.stdout
    result.json()


# ---------------------------------------------------------------------------
# the text format


def test_text_lines_and_summary(three):
    result = bgcheck_cli("check", ".", "--no-show-source")
    lines = result.stdout.splitlines()
    assert lines[-1] == "Found 3 problems (3 errors); 1 file checked."
    # the BG105 and BG102 findings have unsafe fixes: not applied by --fix alone, and said so
    assert lines[-2] == "2 more fixes available with `--unsafe-fixes` (they can change behaviour: see each rule's page)."
    findings = [LINE_FORMAT.match(line) for line in lines[:-2]]
    assert all(findings), lines
    assert [(m["path"], int(m["line"]), int(m["col"]), m["code"]) for m in findings] == [
        ("app.py", 6, 5, "BG105"),
        ("app.py", 12, 5, "BG102"),
        ("app.py", 19, 9, "BG103"),
    ]


def test_text_summary_counts_severities(in_tmp):
    project(in_tmp, {"app.py": THREE_FINDINGS, "q.py": "import queue\n\njobs = queue.Queue()\n\ndef feed(sock):\n    while True:\n        jobs.put(sock.recv(1024))\n"})
    last = bgcheck_cli("check", ".", "--no-show-source").stdout.splitlines()[-1]
    assert last == "Found 4 problems (3 errors, 1 warning); 2 files checked."


def test_text_matches_json(three):
    text = bgcheck_cli("check", ".", "--no-show-source", "--quiet").stdout.splitlines()
    document = check_json().json()
    assert text == [f"{d['path']}:{d['line']}:{d['column']}: {d['code']} {d['message']}" for d in document["diagnostics"]]


def test_show_source_draws_a_frame_with_a_marker(three):
    out = bgcheck_cli("check", ".", "--show-source", "--select", "BG105").stdout
    assert out == (
        "app.py:6:5: BG105 " + check_json("--select", "BG105").json()["diagnostics"][0]["message"] + "\n"
        "  |\n"
        "5 |         await queue.get()\n"
        "6 |     except asyncio.CancelledError:\n"
        "  |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "7 |         pass\n"
        "  |\n"
        "\n"
        "1 more fix available with `--unsafe-fixes` (they can change behaviour: see each rule's page).\n"
        "Found 1 problem (1 error); 1 file checked.\n"
    )


def test_no_show_source_is_the_default_off_a_terminal(three):
    out = bgcheck_cli("check", ".").stdout
    assert "^" not in out
    assert " | " not in out


def test_color_always_emits_ansi_escapes(three):
    out = bgcheck_cli("check", ".", "--color", "always", "--show-source").stdout
    assert "\x1b[" in out
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert plain == bgcheck_cli("check", ".", "--color", "never", "--show-source").stdout


@pytest.mark.parametrize("color", ["never", "auto"])
def test_no_ansi_escapes_without_colour(three, color):
    out = bgcheck_cli("check", ".", "--color", color, "--show-source", env={"NO_COLOR": "1"}).stdout
    assert "\x1b[" not in out


def _run_on_a_terminal(args: list[str], cwd: Path, env_extra: dict) -> str:
    """Run ``python -m bgcheck ARGS`` with stdout on a pseudo-terminal; return what it printed."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(env_extra)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    process = subprocess.Popen(
        [sys.executable, "-m", "bgcheck", *args], cwd=cwd, stdout=slave, stderr=subprocess.PIPE, env=env
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    process.wait(timeout=60)
    assert process.returncode == 1, process.stderr.read()
    return b"".join(chunks).decode("utf-8")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_auto_colour_and_frames_on_a_terminal(three):
    out = _run_on_a_terminal(["check", "."], three, {})
    assert "\x1b[" in out
    assert "^^^^" in out  # code frames default to on at a terminal


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_no_color_env_turns_auto_colour_off_on_a_terminal(three):
    out = _run_on_a_terminal(["check", "."], three, {"NO_COLOR": "1"})
    assert "\x1b[" not in out
    assert "BG105" in out


def test_statistics(in_tmp):
    project(in_tmp, {"a.py": THREE_FINDINGS, "b.py": THREE_FINDINGS.replace("finally:\n        return 0", "finally:\n        pass")})
    out = bgcheck_cli("check", ".", "--statistics", "--quiet").stdout.splitlines()
    assert out[-3:] == [
        "    2  BG102      broad-except-swallows-cancellation",
        "    2  BG105      stop-request-swallowed",
        "    1  BG103      finally-swallows-cancellation",
    ]
    unsafe = bgcheck_cli("check", ".", "--statistics", "--quiet", "--unsafe-fixes").stdout.splitlines()
    assert unsafe[-3:] == [
        "    2  BG102  [*] broad-except-swallows-cancellation",
        "    2  BG105  [*] stop-request-swallowed",
        "    1  BG103      finally-swallows-cancellation",
    ]


def test_quiet_prints_findings_only(three):
    out = bgcheck_cli("check", ".", "--quiet").stdout.splitlines()
    assert len(out) == 3
    assert all(LINE_FORMAT.match(line) for line in out)
    assert bgcheck_cli("check", ".", "-q").stdout.splitlines() == out


def test_quiet_and_clean_prints_nothing(in_tmp):
    project(in_tmp, {"app.py": CLEAN})
    result = bgcheck_cli("check", ".", "--quiet")
    assert (result.exit_code, result.stdout) == (0, "")


def test_version():
    result = bgcheck_cli("--version")
    assert result.exit_code == 0
    assert result.stdout == f"bgcheck, version {bgcheck.__version__}\n"


def test_output_is_deterministic(in_tmp):
    files = {f"pkg/mod_{name}.py": THREE_FINDINGS for name in ("b", "a", "c")}
    files["pkg/__init__.py"] = ""
    files["zz.py"] = THREE_FINDINGS
    files["aa.py"] = THREE_FINDINGS
    project(in_tmp, files)
    first = check_json()
    second = check_json()
    assert first.stdout == second.stdout
    keys = [(d["path"], d["line"], d["column"], d["code"]) for d in first.json()["diagnostics"]]
    assert keys == sorted(keys)
    assert [p for p, *_ in keys][::3] == ["aa.py", "pkg/mod_a.py", "pkg/mod_b.py", "pkg/mod_c.py", "zz.py"]
    text = [bgcheck_cli("check", ".", "--statistics").stdout for _ in range(2)]
    assert text[0] == text[1]


# ---------------------------------------------------------------------------
# bgcheck rules / explain


def test_rules_text_lists_every_rule_and_bg000():
    result = bgcheck_cli("rules")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    codes = [line.split()[0] for line in lines]
    assert codes == ["BG000"] + [rule.code for rule in all_rules()]
    for line, rule in zip(lines[1:], all_rules()):
        assert line.split()[1:3] == [rule.name, rule.severity.value]
        assert line.endswith(rule.summary + (" (preview)" if rule.preview else ""))


def test_rules_json():
    result = bgcheck_cli("rules", "--format", "json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert set(document) == {"version", "rules"}
    assert document["rules"][0] == {
        "code": "BG000",
        "name": "file-not-analysed",
        "severity": "error",
        "summary": document["rules"][0]["summary"],
        "preview": False,
        "fix": "",
    }
    assert [
        (r["code"], r["name"], r["severity"], r["summary"]) for r in document["rules"][1:]
    ] == [(r.code, r.name, r.severity.value, r.summary) for r in all_rules()]


def test_explain_unknown_rule_exits_2():
    result = bgcheck_cli("explain", "BG999")
    assert result.exit_code == 2
    assert result.stderr == "bgcheck: error: unknown rule 'BG999' (see `bgcheck rules`)\n"


@pytest.mark.parametrize("key", ["BG105", "bg105", "stop-request-swallowed"])
def test_explain_by_code_or_name(key):
    result = bgcheck_cli("explain", key)
    assert result.exit_code == 0, result.stderr
    assert "BG105" in result.stdout


# ---------------------------------------------------------------------------
# BG000: files that cannot be analysed are reported, and the rest still checked


def test_bg000_syntax_error_with_its_line(in_tmp):
    project(in_tmp, {"app.py": THREE_FINDINGS, "broken.py": "a = 1\nb = 2\nx = = 1\n"})
    result = check_json()
    assert result.exit_code == 1
    (broken,) = [d for d in result.json()["diagnostics"] if d["path"] == "broken.py"]
    assert (broken["code"], broken["name"], broken["severity"]) == ("BG000", "file-not-analysed", "error")
    assert broken["line"] == 3
    assert "syntax error" in broken["message"]
    assert [c for p, _, c in result.found() if p == "app.py"] == ["BG105", "BG102", "BG103"]
    assert result.json()["summary"]["files_checked"] == 2


@pytest.mark.parametrize(
    "source",
    [
        "def f(:\n    pass\n",
        "a = 1\nif x\n    pass\n",
        "a = 1\nprint('unterminated\n",
        "a = (1,\n",
        "a = 1\n  b = 2\n",
    ],
)
def test_bg000_syntax_error_at_cpythons_position(in_tmp, source):
    """BG000 reports a syntax error where CPython does (libcst's own positions are often a line off)."""
    import ast

    with pytest.raises(SyntaxError) as python:
        ast.parse(source)
    project(in_tmp, {"broken.py": source})
    (broken,) = check_json().json()["diagnostics"]
    assert (broken["code"], broken["line"], broken["column"]) == ("BG000", python.value.lineno, python.value.offset)
    assert python.value.msg in broken["message"]


def test_bg000_undecodable_bytes(in_tmp):
    project(in_tmp, {"app.py": THREE_FINDINGS, "latin.py": b"name = 'caf\xe9'\n"})
    result = check_json()
    (latin,) = [d for d in result.json()["diagnostics"] if d["path"] == "latin.py"]
    assert latin["code"] == "BG000"
    assert "decode" in latin["message"]
    assert ("app.py", 6, "BG105") in result.found()


def test_a_coding_cookie_or_a_bom_is_honoured(in_tmp):
    project(
        in_tmp,
        {
            "latin.py": b"# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n",
            "bom.py": b"\xef\xbb\xbf" + THREE_FINDINGS.encode(),
        },
    )
    assert check_json().found() == [("bom.py", 6, "BG105"), ("bom.py", 12, "BG102"), ("bom.py", 19, "BG103")]


def test_bg000_unknown_coding_cookie(in_tmp):
    project(in_tmp, {"klingon.py": b"# -*- coding: klingon -*-\nx = 1\n"})
    (diagnostic,) = check_json().json()["diagnostics"]
    assert diagnostic["code"] == "BG000"
    assert "klingon" in diagnostic["message"]


def test_bg000_nul_byte(in_tmp):
    project(in_tmp, {"app.py": THREE_FINDINGS, "nul.py": b"x = 1\x00\n"})
    result = check_json()
    (nul,) = [d for d in result.json()["diagnostics"] if d["path"] == "nul.py"]
    assert nul["code"] == "BG000"
    assert "NUL" in nul["message"]
    assert ("app.py", 6, "BG105") in result.found()


def test_bg000_file_over_the_size_limit(in_tmp, monkeypatch):
    import bgcheck.load.source

    monkeypatch.setattr(bgcheck.load.source, "MAX_FILE_BYTES", 2048)
    project(in_tmp, {"app.py": THREE_FINDINGS, "generated.py": "x = 1\n" * 1000})
    result = check_json()
    (big,) = [d for d in result.json()["diagnostics"] if d["path"] == "generated.py"]
    assert big["code"] == "BG000"
    assert "limit" in big["message"]
    assert ("app.py", 6, "BG105") in result.found()


@pytest.mark.parametrize(
    "source",
    [
        "x = " + "(" * 5000 + ")" * 5000 + "\n",
        "x = " + "[" * 3000 + "]" * 3000 + "\n",
    ],
    ids=["5000-parens", "3000-lists"],
)
def test_bg000_too_deeply_nested(in_tmp, source):
    project(in_tmp, {"app.py": THREE_FINDINGS, "deep.py": source})
    result = check_json()
    (deep,) = [d for d in result.json()["diagnostics"] if d["path"] == "deep.py"]
    assert (deep["code"], deep["line"]) == ("BG000", 1)
    assert "nested too deeply" in deep["message"]
    assert ("app.py", 6, "BG105") in result.found()


def test_bg000_deep_nesting_with_items_between(in_tmp):
    project(in_tmp, {"deep.py": "x = " + "[0, " * 300 + "0" + "]" * 300 + "\n"})
    assert check_json().codes() == ["BG000"]


def test_bg000_is_reported_like_other_codes(in_tmp):
    project(in_tmp, {"app.py": THREE_FINDINGS, "broken.py": "x = = 1\n"})
    assert "BG000" in check_json().codes()
    # --select keeps BG000 only when it is selected: a run narrowed to one rule reports that rule only
    assert check_json("--select", "BG105").codes() == ["BG105"]
    assert check_json("--select", "BG105,BG000").codes() == ["BG105", "BG000"]
    assert check_json("--select", "BG0").codes() == ["BG000"]
    assert check_json("--ignore", "BG000").codes() == ["BG105", "BG102", "BG103"]
    # the unanalysable file still counts as checked
    assert check_json("--select", "BG105").json()["summary"]["files_checked"] == 2


def test_bg000_honours_per_file_ignores_and_noqa(in_tmp):
    project(
        in_tmp,
        {"vendored/broken.py": "x = = 1\n", "quiet.py": "x = = 1  # noqa: BG000\n", "loud.py": "x = = 1\n"},
        config="""
        [tool.bgcheck.per-file-ignores]
        "vendored/*" = ["BG000"]
        """,
    )
    assert check_json().found() == [("loud.py", 1, "BG000")]


def test_bg000_shows_a_frame(in_tmp):
    project(in_tmp, {"broken.py": "a = 1\nb = 2\nx = = 1\n"})
    out = bgcheck_cli("check", ".", "--show-source").stdout
    assert "3 | x = = 1" in out
    assert "^" in out


# ---------------------------------------------------------------------------
# noqa


def _noqa_project(root: Path, comment: str) -> None:
    project(root, {"app.py": THREE_FINDINGS.replace("    except asyncio.CancelledError:", f"    except asyncio.CancelledError:  {comment}")})


@pytest.mark.parametrize(
    ("comment", "expected"),
    [
        ("# noqa", ["BG102", "BG103"]),
        ("# NOQA", ["BG102", "BG103"]),
        ("# noqa: BG105", ["BG102", "BG103"]),
        ("# noqa:BG105,BG102", ["BG102", "BG103"]),  # BG102 is on another line
        ("# noqa: BG1", ["BG105", "BG102", "BG103"]),  # noqa takes whole codes, not prefixes
        ("# noqa: BG102", ["BG105", "BG102", "BG103"]),
        ("# noqa: E722", ["BG105", "BG102", "BG103"]),  # another tool's code
        ("# noqa: E722, BG105", ["BG102", "BG103"]),
        ("# type: ignore  # noqa: BG105", ["BG102", "BG103"]),
        ("# noqa: see the ticket", ["BG105", "BG102", "BG103"]),  # a list without codes hides nothing
    ],
)
def test_noqa(in_tmp, comment, expected):
    _noqa_project(in_tmp, comment)
    assert check_json().codes() == expected


def test_noqa_inside_a_string_is_not_a_comment(in_tmp):
    project(in_tmp, {"app.py": THREE_FINDINGS.replace("        pass\n", "        note = '# noqa'\n", 1)})
    assert check_json().codes() == ["BG105", "BG102", "BG103"]


def test_noqa_on_the_first_line_of_a_multi_line_statement(in_tmp):
    project(
        in_tmp,
        {
            "tasks.py": """\
            import requests
            from celery import shared_task


            @shared_task
            def push(payload):
                response = (  # noqa: BG203
                    requests.post("https://erp.example.com/api", json=payload)
                )
                return response.status_code
            """
        },
    )
    assert check_json().codes() == []


@pytest.mark.parametrize(
    ("source", "code"),
    [
        (THREE_FINDINGS.replace("    try:\n        await queue.get()", "    try:  # noqa: BG105\n        await queue.get()"), "BG105"),
        (
            """\
            import time

            from apscheduler.schedulers.background import BackgroundScheduler

            scheduler = BackgroundScheduler()


            @scheduler.scheduled_job("interval", minutes=5)
            def sync():  # noqa: BG201
                batch = 200
                while True:
                    time.sleep(30)
            """,
            "BG201",
        ),
    ],
)
def test_noqa_on_an_enclosing_line_does_not_hide_a_finding(in_tmp, source, code):
    project(in_tmp, {"app.py": source})
    assert code in check_json().codes()


# ---------------------------------------------------------------------------
# internal errors


@pytest.fixture
def broken_rule(monkeypatch):
    from bgcheck.rules.cancellation import CancellationSwallowed

    def boom(self, node, ctx):
        raise RuntimeError("rule exploded")

    monkeypatch.setattr(CancellationSwallowed, "visit_ExceptHandler", boom)


def test_a_rule_failing_on_a_file_is_that_files_bg000(three, broken_rule, monkeypatch):
    monkeypatch.delenv("BGCHECK_DEBUG", raising=False)
    other = "import threading\n\ndef loop():\n    while True:\n        pass\n\nthreading.Thread(target=loop).start()\n"
    (three / "other.py").write_text(other, encoding="utf-8")
    result = check_json()
    assert result.exit_code == 1
    assert result.stderr == ""
    assert sorted(result.found()) == [("app.py", 1, "BG000"), ("other.py", 7, "BG202")]
    (error,) = [d for d in result.json()["diagnostics"] if d["code"] == "BG000"]
    assert "bgcheck failed while checking it (RuntimeError: rule exploded)" in error["message"]


def test_a_rule_failing_on_a_file_with_exit_zero(three, broken_rule):
    assert bgcheck_cli("check", ".", "--exit-zero").exit_code == 0


def test_debug_shows_the_traceback(three, broken_rule):
    result = bgcheck_cli("--debug", "check", ".")
    assert result.exit_code == 1
    assert "bgcheck: internal error while checking app.py:" in result.stderr
    assert "Traceback (most recent call last):" in result.stderr
    assert "RuntimeError: rule exploded" in result.stderr
    assert "boom" in result.stderr
    assert "BG000" in result.stdout
    assert "Traceback" not in bgcheck_cli("check", ".").stderr  # --debug does not stick


def test_bgcheck_debug_env_shows_the_traceback(three, broken_rule):
    result = bgcheck_cli("check", ".", env={"BGCHECK_DEBUG": "1"})
    assert result.exit_code == 1
    assert "Traceback (most recent call last):" in result.stderr


# ---------------------------------------------------------------------------
# the README


def _readme_rule_table() -> list[tuple[str, str, str]]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\|\s*`?(BG\d{3})`?\s*\|\s*`?([a-z0-9-]+)`?\s*\|\s*(error|warning|info)\s*\|", text, re.MULTILINE)
    return rows


def test_readme_rule_table_matches_bgcheck_rules():
    document = json.loads(bgcheck_cli("rules", "--format", "json").stdout)
    assert _readme_rule_table() == [(r["code"], r["name"], r["severity"]) for r in document["rules"]]


def test_readme_quick_start_is_two_commands():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    quick_start = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```(?:sh|bash|console)?\n(.*?)```", quick_start, re.DOTALL)
    assert block.strip().splitlines() == [
        "pip install . && bgcheck check fixtures/demo_service",
        'pip install ".[test]" && pytest',
    ]


def test_readme_sample_output_is_real(monkeypatch):
    """Every finding, note and summary line in the README's samples is what bgcheck prints for the demo."""
    monkeypatch.chdir(REPO)
    text = (REPO / "README.md").read_text(encoding="utf-8")
    shown = [
        line
        for line in text.splitlines()
        if line.startswith("fixtures/demo_service/") or line.startswith("  note: fixtures/") or line.startswith("Found ")
    ]
    assert shown, "the README shows sample output"
    actual = bgcheck_cli("check", "fixtures/demo_service", "--no-show-source", "--no-cache").stdout.splitlines()
    # the --show-fixes sample runs with --unsafe-fixes: its findings are marked fixable ([*])
    actual += bgcheck_cli("check", "fixtures/demo_service", "--no-show-source", "--no-cache", "--unsafe-fixes").stdout.splitlines()
    for line in shown:
        assert line in actual, line
