"""The everyday interface: --format concise and gitlab, --output-file, stdin, extend-select,
FORCE_COLOR, --statistics with --quiet, empty runs, one-line usage errors, rule names in
--select/--ignore. Expected outputs are built whole from ``--format json`` of the same run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcheck.cli import main
from test_cli import CLEAN, THREE_FINDINGS, project

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "fixtures" / "demo_service"
# No colour from the environment of whoever runs the tests, unless a test asks for it.
PLAIN = {"NO_COLOR": None, "FORCE_COLOR": None}


def cli(*args: str, env: dict | None = None, input: str | bytes | None = None):
    raw = CliRunner().invoke(main, list(args), env={**PLAIN, **(env or {})}, input=input, catch_exceptions=True)
    assert raw.exception is None or isinstance(raw.exception, SystemExit), raw.exc_info
    return raw


def diagnostics(*args: str, input=None) -> list[dict]:
    raw = cli("check", "--no-cache", "--format", "json", *args, input=input)
    return json.loads(raw.stdout)["diagnostics"]


@pytest.fixture
def three(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return project(tmp_path, {"app.py": THREE_FINDINGS})


@pytest.fixture
def demo(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    monkeypatch.chdir(root)
    return root


def concise_lines(found: list[dict]) -> list[str]:
    return [f"{d['path']}:{d['line']}:{d['column']}: {d['code']} {d['message']}" for d in found]


# ---------------------------------------------------------------------------
# --format concise


def test_concise_is_one_line_per_finding_and_the_summary(three):
    found = diagnostics(".")
    raw = cli("check", "--no-cache", "--format", "concise", "--show-source", ".")
    assert raw.exit_code == 1
    assert raw.stdout == "\n".join(concise_lines(found) + ["Found 3 problems (3 errors); 1 file checked."]) + "\n"


def test_concise_quiet_has_no_summary(three):
    raw = cli("check", "--no-cache", "--format", "concise", "-q", ".")
    assert raw.stdout == "\n".join(concise_lines(diagnostics("."))) + "\n"


def test_concise_has_no_notes_where_text_has_them(demo):
    found = diagnostics("--preview", ".")
    assert any(d["related"] for d in found)  # the demo has findings with notes
    text = cli("check", "--no-cache", "--preview", "--no-show-source", ".").stdout
    assert "note:" in text
    concise = cli("check", "--no-cache", "--preview", "--format", "concise", ".").stdout.splitlines()
    assert concise[:-1] == concise_lines(found)
    assert concise[-1].startswith("Found ") and "note:" not in "\n".join(concise)


def test_concise_clean_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    project(tmp_path, {"app.py": CLEAN})
    raw = cli("check", "--no-cache", "--format", "concise", ".")
    assert (raw.exit_code, raw.stdout) == (0, "All checks passed (1 file checked).\n")


# ---------------------------------------------------------------------------
# --format gitlab


def gitlab(*args: str) -> list[dict]:
    raw = cli("check", "--no-cache", "--format", "gitlab", *args)
    assert raw.exit_code in (0, 1), raw.output
    return json.loads(raw.stdout)


def test_gitlab_report_is_the_findings_in_code_quality_form(demo):
    found = diagnostics("--preview", ".")
    report = gitlab("--preview", ".")
    severity = {"error": "major", "warning": "minor", "info": "info"}
    assert [{k: v for k, v in issue.items() if k != "fingerprint"} for issue in report] == [
        {
            "description": f"{d['code']} {d['message']}",
            "check_name": d["code"],
            "severity": severity[d["severity"]],
            "location": {"path": d["path"], "lines": {"begin": d["line"], "end": d["end_line"]}},
        }
        for d in found
    ]
    fingerprints = [issue["fingerprint"] for issue in report]
    assert len(set(fingerprints)) == len(fingerprints)
    assert all(len(f) == 32 and int(f, 16) >= 0 for f in fingerprints)


def test_gitlab_fingerprints_survive_a_line_shift_and_identical_lines_differ(three):
    before = gitlab(".")
    (three / "app.py").write_text("# a comment\n\n" + THREE_FINDINGS, encoding="utf-8")
    after = gitlab(".")
    assert [i["fingerprint"] for i in after] == [i["fingerprint"] for i in before]
    assert [i["location"]["lines"]["begin"] for i in after] == [i["location"]["lines"]["begin"] + 2 for i in before]
    (three / "app.py").write_text(THREE_FINDINGS + "\n\n" + THREE_FINDINGS.split("\n", 1)[1], encoding="utf-8")
    doubled = gitlab(".")
    assert len(doubled) == 6 and len({i["fingerprint"] for i in doubled}) == 6


def test_gitlab_report_of_a_clean_run_is_an_empty_list(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    project(tmp_path, {"app.py": CLEAN})
    raw = cli("check", "--no-cache", "--format", "gitlab", ".")
    assert (raw.exit_code, raw.stdout) == (0, "[]\n")


# ---------------------------------------------------------------------------
# --output-file


@pytest.mark.parametrize("fmt", ["text", "concise", "json", "gitlab", "sarif", "github"])
def test_output_file_holds_what_stdout_would(three, fmt):
    to_stdout = cli("check", "--no-cache", "--format", fmt, ".")
    to_file = cli("check", "--no-cache", "--format", fmt, "--output-file", "report.out", ".", env={"FORCE_COLOR": "1"})
    assert to_file.exit_code == to_stdout.exit_code == 1
    assert to_file.stdout == ""
    assert (three / "report.out").read_text(encoding="utf-8") == to_stdout.stdout  # no colour in a file


def test_output_file_in_a_missing_folder_creates_it(three):
    # as ruff's -o (CI writes reports/bgcheck.sarif into a fresh checkout)
    to_stdout = cli("check", "--no-cache", "--format", "concise", ".")
    raw = cli("check", "--no-cache", "--format", "concise", "--output-file", "no/such/folder/report.txt", ".")
    assert (raw.exit_code, raw.stdout, raw.stderr) == (1, "", "")
    assert (three / "no/such/folder/report.txt").read_text(encoding="utf-8") == to_stdout.stdout


def test_output_file_that_cannot_be_written_is_one_line(three):
    raw = cli("check", "--no-cache", "--output-file", "app.py/report.txt", ".")  # a file where a folder would be
    assert raw.exit_code == 2
    assert raw.stderr.startswith("bgcheck: error: cannot write the report to app.py/report.txt")
    assert raw.stderr.count("\n") == 1 and raw.stdout == ""


# ---------------------------------------------------------------------------
# stdin


def test_stdin_text_replaces_the_file_on_disk(three):
    raw = cli("check", "--no-cache", "--format", "concise", "-", "--stdin-filename", "app.py", input=CLEAN)
    assert (raw.exit_code, raw.stdout) == (0, "All checks passed (1 file checked).\n")
    assert (three / "app.py").read_text(encoding="utf-8") == THREE_FINDINGS  # nothing written


def test_stdin_findings_are_reported_at_the_path_given(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    project(tmp_path, {"pkg/__init__.py": "", "pkg/app.py": CLEAN})
    on_disk = diagnostics("pkg/app.py")
    assert on_disk == []
    found = diagnostics("-", "--stdin-filename", "pkg/app.py", input=THREE_FINDINGS)
    (tmp_path / "pkg" / "app.py").write_text(THREE_FINDINGS, encoding="utf-8")
    assert found == diagnostics("pkg/app.py")
    assert {d["path"] for d in found} == {"pkg/app.py"}


def test_stdin_file_is_checked_against_its_project(demo):
    whole = diagnostics("--preview", ".")
    files = sorted(p.relative_to(demo).as_posix() for p in demo.rglob("*.py"))
    for name in files:
        text = (demo / name).read_text(encoding="utf-8")
        (demo / name).unlink()  # the file need not exist on disk: an unsaved buffer
        found = diagnostics("--preview", "-", "--stdin-filename", name, input=text)
        (demo / name).write_text(text, encoding="utf-8")
        assert found == [d for d in whole if d["path"] == name], name
    assert any(d["path"] == "shop/billing.py" for d in whole)


def test_stdin_that_does_not_parse_is_bg000_at_the_path_given(three):
    found = diagnostics("-", "--stdin-filename", "app.py", input="def broken(:\n")
    assert [(d["code"], d["path"], d["line"]) for d in found] == [("BG000", "app.py", 1)]


def test_dash_without_stdin_filename_is_a_usage_error(three):
    raw = cli("check", "-", input=CLEAN)
    assert raw.exit_code == 2 and raw.stdout == ""
    assert raw.stderr == (
        "bgcheck: error: `-` reads the source from stdin: name the file it is with --stdin-filename PATH"
        " (see `bgcheck check --help`)\n"
    )


def test_stdin_filename_with_other_paths_is_a_usage_error(three):
    raw = cli("check", "-", "app.py", "--stdin-filename", "app.py", input=CLEAN)
    assert raw.exit_code == 2 and raw.stdout == "" and raw.stderr.count("\n") == 1
    assert raw.stderr.startswith("bgcheck: error: --stdin-filename checks stdin only")


# ---------------------------------------------------------------------------
# extend-select


@pytest.mark.parametrize(
    ("config", "args", "expected"),
    [
        ('select = ["BG105"]\nextend-select = ["BG103"]\n', (), ["BG105", "BG103"]),
        ('select = ["BG105"]\nextend-select = ["stop-request-swallowed"]\n', None, None),  # names: not in the file
        ('select = ["BG105"]\n', (), ["BG105"]),
        ('extend-select = ["BG103"]\n', (), ["BG105", "BG102", "BG103"]),  # no select: every rule already
        ('select = ["BG105"]\nextend-select = ["ALL"]\n', (), ["BG105", "BG102", "BG103"]),
        ('select = ["BG105"]\nextend-select = ["BG103"]\n', ("--select", "BG102"), ["BG102"]),  # the CLI replaces both
        ('select = ["BG105"]\nextend-select = ["BG10"]\nignore = ["BG102"]\n', (), ["BG105", "BG103"]),
    ],
)
def test_extend_select_adds_to_select(three, config, args, expected):
    (three / "pyproject.toml").write_text("[tool.bgcheck]\npreview = true\n" + config, encoding="utf-8")
    if expected is None:
        raw = cli("check", "--no-cache", ".")
        assert raw.exit_code == 2
        assert raw.stderr.startswith("bgcheck: error: pyproject.toml: [tool.bgcheck] extend-select: expected a list of rule codes")
        return
    assert [d["code"] for d in diagnostics(*args, ".")] == expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ('["BG999"]', "extend-select: unknown rule code 'BG999'"),
        ('"BG105"', "extend-select: expected a list of rule codes such as 'BG101', prefixes such as 'BG1', or 'ALL', got 'BG105'"),
    ],
)
def test_extend_select_is_validated_like_select(three, value, message):
    (three / "pyproject.toml").write_text(f"[tool.bgcheck]\nextend-select = {value}\n", encoding="utf-8")
    raw = cli("check", "--no-cache", ".")
    assert raw.exit_code == 2 and raw.stdout == ""
    assert raw.stderr == f"bgcheck: error: pyproject.toml: [tool.bgcheck] {message}\n"


# ---------------------------------------------------------------------------
# output-format, show-source, show-explanations in the configuration


def test_configured_output_format_is_used_unless_format_is_given(three):
    (three / "pyproject.toml").write_text('[tool.bgcheck]\npreview = true\noutput-format = "concise"\n', encoding="utf-8")
    found = diagnostics(".")  # --format json on the command line wins over the configuration
    raw = cli("check", "--no-cache", ".")
    assert raw.stdout == "\n".join(concise_lines(found) + ["Found 3 problems (3 errors); 1 file checked."]) + "\n"


def test_configured_output_format_is_validated(three):
    (three / "pyproject.toml").write_text('[tool.bgcheck]\noutput-format = "xml"\n', encoding="utf-8")
    raw = cli("check", "--no-cache", ".")
    assert raw.exit_code == 2 and raw.stdout == ""
    assert raw.stderr == (
        'bgcheck: error: pyproject.toml: [tool.bgcheck] output-format: expected one of "concise", "github", '
        '"gitlab", "json", "lsp", "sarif", "text", got \'xml\'\n'
    )


def test_the_configurable_formats_are_the_renderers():
    from bgcheck.load.config import OUTPUT_FORMATS
    from bgcheck.report import REPORTERS

    assert sorted(OUTPUT_FORMATS) == sorted(REPORTERS)


@pytest.mark.parametrize(
    ("config", "args", "shown"),
    [
        ("", (), False),  # not a terminal: off
        ("show-explanations = true\nshow-source = true\n", (), True),
        ("show-explanations = true\nshow-source = true\n", ("--no-show-explanations", "--no-show-source"), False),
        ("show-explanations = false\nshow-source = false\n", ("--show-explanations", "--show-source"), True),
    ],
)
def test_configured_explanations_and_source(three, config, args, shown):
    (three / "pyproject.toml").write_text("[tool.bgcheck]\npreview = true\n" + config, encoding="utf-8")
    configured = cli("check", "--no-cache", *args, ".").stdout
    (three / "pyproject.toml").write_text("[tool.bgcheck]\npreview = true\n", encoding="utf-8")
    expected = cli("check", "--no-cache", *(("--show-explanations", "--show-source") if shown else ()), ".").stdout
    assert configured == expected
    assert ("why:" in configured) is shown and ("app.py:" in configured)


# ---------------------------------------------------------------------------
# FORCE_COLOR, NO_COLOR, --color


@pytest.mark.parametrize(
    ("env", "args", "coloured"),
    [
        ({}, (), False),
        ({"FORCE_COLOR": "1"}, (), True),
        ({"FORCE_COLOR": ""}, (), False),  # set but empty: not set
        ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, (), False),
        ({"FORCE_COLOR": "1"}, ("--color", "never"), False),
        ({"NO_COLOR": "1"}, ("--color", "always"), True),
        ({"FORCE_COLOR": "1"}, ("--format", "concise"), True),
        ({"FORCE_COLOR": "1"}, ("--format", "json"), False),
    ],
)
def test_force_color(three, env, args, coloured):
    out = cli("check", "--no-cache", *args, ".", env=env).stdout
    assert ("\x1b[" in out) is coloured
    assert "BG105" in out


def test_force_color_output_is_the_plain_output_painted(three):
    painted = cli("check", "--no-cache", ".", env={"FORCE_COLOR": "1"}).stdout
    plain = cli("check", "--no-cache", ".").stdout
    import re

    assert re.sub(r"\x1b\[[0-9;]*m", "", painted) == plain


# ---------------------------------------------------------------------------
# --statistics with --quiet


TABLE = [  # the fixable column: BG102's fix is unsafe, not applied without --unsafe-fixes
    "    1  BG102      broad-except-swallows-cancellation",
    "    1  BG103      finally-swallows-cancellation",
    "    1  BG105      stop-request-swallowed",
]


@pytest.mark.parametrize("fmt", ["text", "concise"])
def test_statistics_quiet_prints_only_the_table(three, fmt):
    raw = cli("check", "--no-cache", "--format", fmt, "--statistics", "--quiet", "--show-source", ".")
    assert raw.exit_code == 1
    assert raw.stdout == "\n".join(TABLE) + "\n"


def test_statistics_without_quiet_prints_findings_table_and_summary(three):
    raw = cli("check", "--no-cache", "--format", "concise", "--statistics", ".")
    assert raw.stdout == "\n".join(concise_lines(diagnostics(".")) + TABLE + ["Found 3 problems (3 errors); 1 file checked."]) + "\n"


# ---------------------------------------------------------------------------
# runs that check nothing


def test_no_python_files_is_said_on_stderr(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "README.md").write_text("# docs\n", encoding="utf-8")
    raw = cli("check", "--no-cache", "docs")
    assert raw.exit_code == 0
    assert raw.stdout == "All checks passed (0 files checked).\n"
    assert raw.stderr == "bgcheck: warning: no Python files found in docs\n"


def test_python_files_found_no_warning(three):
    raw = cli("check", "--no-cache", ".")
    assert raw.stderr == ""


def test_empty_selection_is_said_on_stderr(three):
    raw = cli("check", "--no-cache", "--select", "BG105", "--ignore", "BG105", ".")
    assert raw.exit_code == 0
    assert raw.stderr == (
        "bgcheck: warning: no rules selected: select, extend-select, ignore and preview leave nothing to check\n"
    )
    assert cli("check", "--no-cache", "--select", "BG105", ".").stderr == ""


# ---------------------------------------------------------------------------
# usage errors and rule names


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("check", "--no-such-option"), None),  # click's own wording differs between versions
        (("check", "--format", "xml"), None),
        (("check", "--jobs", "0"), None),
        (("nope",), "bgcheck: error: No such command 'nope' (see `bgcheck --help`)\n"),
        (("check", "--select", "not-a-rule"), "bgcheck: error: Invalid value for '--select': unknown rule code 'not-a-rule' (see `bgcheck rules`)\n"),
        (("explain",), None),
    ],
)
def test_usage_errors_are_one_line(three, args, expected):
    raw = cli(*args)
    assert raw.exit_code == 2 and raw.stdout == ""
    assert raw.stderr.startswith("bgcheck: error: ") and raw.stderr.count("\n") == 1, raw.stderr
    assert "Usage:" not in raw.stderr and "Error:" not in raw.stderr
    assert raw.stderr.rstrip("\n").endswith(("--help`)", "`bgcheck rules`)"))
    if expected is not None:
        assert raw.stderr == expected


def test_help_and_version_still_exit_0():
    assert cli("--version").exit_code == 0
    raw = cli("check", "--help")
    assert raw.exit_code == 0 and "--stdin-filename" in raw.stdout and "--output-file" in raw.stdout


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--select", "stop-request-swallowed"), ["BG105"]),
        (("--select", "Cancellation-Swallowed,BG103"), ["BG105", "BG103"]),
        (("--ignore", "stop-request-swallowed"), ["BG102", "BG103"]),
        (("--select", "BG1", "--ignore", "finally-swallows-cancellation"), ["BG105", "BG102"]),
    ],
)
def test_select_and_ignore_take_rule_names(three, args, expected):
    assert [d["code"] for d in diagnostics(*args, ".")] == expected


# ---------------------------------------------------------------------------
# the README


def test_readme_documents_every_option_of_check_and_every_format():
    import click

    from bgcheck.report import REPORTERS

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    options = [opt for p in main.commands["check"].params if isinstance(p, click.Option) for opt in p.opts if opt.startswith("--")]
    assert "--stdin-filename" in options and "--output-file" in options
    missing = [opt for opt in options if f"`{opt}" not in readme and f"{opt} " not in readme]
    assert missing == []
    for name in REPORTERS:
        assert f"`{name}`" in readme.split("## Output formats", 1)[1].split("\n## ", 1)[0], name
    assert "| `extend-select` |" in readme
    assert "FORCE_COLOR" in readme and "NO_COLOR" in readme


def test_readme_installs_nothing_from_pypi():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "bgcheck==" not in readme
    assert not [line for line in readme.splitlines() if line.strip().startswith(("pip install bgcheck", 'pip install "bgcheck'))]
    assert "not published on PyPI" in readme


def test_stdin_with_the_cache_on_follows_the_text_not_the_file(three):
    args = ("check", "--format", "concise", "--cache-dir", str(three / "cache"), "-", "--stdin-filename", "app.py")
    clean = "All checks passed (1 file checked).\n"
    assert cli(*args, input=CLEAN).stdout == clean
    assert cli(*args, input=THREE_FINDINGS).stdout == cli("check", "--no-cache", "--format", "concise", "app.py").stdout
    assert cli(*args, input=CLEAN).stdout == clean
    assert (three / "app.py").read_text(encoding="utf-8") == THREE_FINDINGS


def test_stdin_as_a_lone_file_outside_any_project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    raw = cli("check", "--format", "concise", "--preview", "-", "--stdin-filename", "scratch/lone.py", input=THREE_FINDINGS)
    assert raw.exit_code == 1
    assert [line.split(" ", 2)[:2] for line in raw.stdout.splitlines()[:-1]] == [
        ["scratch/lone.py:6:5:", "BG105"],
        ["scratch/lone.py:12:5:", "BG102"],
        ["scratch/lone.py:19:9:", "BG103"],
    ]
    assert list(tmp_path.iterdir()) == []  # nothing written: no file, no cache
