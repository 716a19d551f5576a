"""Baselines: ``--write-baseline FILE`` records today's findings, ``--baseline FILE`` reports only new ones.

Every test works on a copy of the demo service (``fixtures/demo_service``) or a small project
in ``tmp_path``, with ``--no-cache`` unless it is about the cache (then the cache lives in
``tmp_path`` too).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcheck.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
DEMO = FIXTURES / "demo_service"
CLEAN = FIXTURES / "demo_service_clean"

NEW_FINDING = """

async def drain(queue):
    while True:
        try:
            await queue.get()
        except asyncio.CancelledError:
            continue
"""


@contextmanager
def cwd(folder: Path):
    previous = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)


def check(folder: Path, *args: str, cache: bool = False) -> tuple[int, str, str]:
    """``bgcheck check -j 1 ARGS`` from ``folder`` (``--no-cache`` unless ``cache``): (exit code, stdout, stderr)."""
    options = ["--cache-dir", str(folder / ".cache-for-test")] if cache else ["--no-cache"]
    with cwd(folder):
        result = CliRunner().invoke(main, ["check", "-j", "1", *options, *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def findings(out: str) -> list[tuple[str, str, int]]:
    return [(d["code"], d["path"], d["line"]) for d in json.loads(out)["diagnostics"]]


@pytest.fixture
def demo(tmp_path) -> Path:
    return Path(shutil.copytree(DEMO, tmp_path / "demo", ignore=shutil.ignore_patterns(".bgcheck_cache", "__pycache__")))


@pytest.fixture
def baselined(demo) -> Path:
    """The demo with every finding recorded in demo/baseline.json."""
    code, out, err = check(demo, "--write-baseline", "baseline.json")
    assert (code, out) == (0, "")
    assert re.fullmatch(r"Wrote \d+ findings to the baseline baseline\.json\.\n", err), err
    return demo


def edit(path: Path, change) -> None:
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")


GONE = re.compile(r"bgcheck: (\d+) baseline entr(?:y|ies) no longer occurs?\b")


def gone(err: str) -> int:
    match = GONE.search(err)
    return int(match[1]) if match else 0


# ---------------------------------------------------------------------------
# writing


def test_write_baseline_records_code_path_and_fingerprint_of_every_finding(baselined):
    _, out, _ = check(baselined, "--format", "json")
    expected = [(code, path) for code, path, _ in findings(out)]
    document = json.loads((baselined / "baseline.json").read_text(encoding="utf-8"))
    assert document["tool"] == "bgcheck" and document["version"] == 1
    entries = document["entries"]
    assert [(e["code"], e["path"]) for e in entries] == expected
    assert all(set(e) == {"code", "path", "fingerprint"} and re.fullmatch(r"[0-9a-f]{32}", e["fingerprint"]) for e in entries)
    assert len({e["fingerprint"] for e in entries}) == len(entries)


def test_write_baseline_exits_0_and_says_how_many(demo):
    _, out, _ = check(demo, "--format", "json")
    count = len(findings(out))
    code, out, err = check(demo, "--write-baseline", "b.json", "--format", "json")
    assert code == 0 and out == ""
    assert err == f"Wrote {count} findings to the baseline b.json.\n"


def test_write_baseline_of_a_clean_project_is_empty(tmp_path):
    (tmp_path / "ok.py").write_text("x = 1\n", encoding="utf-8")
    code, _, err = check(tmp_path, "--write-baseline", "b.json")
    assert code == 0 and err == "Wrote 0 findings to the baseline b.json.\n"
    assert json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))["entries"] == []


def test_write_baseline_into_a_missing_folder_exits_2_with_one_line(demo):
    code, out, err = check(demo, "--write-baseline", "no/such/folder/b.json")
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("bgcheck: error: ") and "b.json" in err, err
    assert not list(demo.rglob("*.tmp"))


# ---------------------------------------------------------------------------
# reading


def test_baseline_suppresses_every_recorded_finding(baselined):
    code, out, err = check(baselined, "--baseline", "baseline.json", "--format", "json")
    assert findings(out) == []
    assert code == 0 and err == ""


def test_baseline_survives_unrelated_edits_and_line_shifts(baselined):
    shop = baselined / "shop"
    # blank lines and comments above every finding of a file
    edit(shop / "scheduler.py", lambda s: "\n\n# Nightly and hourly jobs.\n\n" + s)
    edit(shop / "workers.py", lambda s: "# partner webhooks and the event consumer\n" + s)
    # an unrelated function between findings, and an edited docstring
    edit(shop / "reports.py", lambda s: s.replace("\n@app.task(time_limit=3600)", "\ndef invoice_name(invoice_id: int) -> str:\n    return f'invoice-{invoice_id}.pdf'\n\n\n@app.task(time_limit=3600)"))
    edit(shop / "billing.py", lambda s: s.replace('"""Charging customers', '"""Charging our customers'))
    # a comment after the last finding, and trailing white space on a flagged line
    edit(shop / "tasks.py", lambda s: s.replace("except Exception:", "except Exception:   ") + "\n\n# end of the tasks module\n")
    _, now, _ = check(baselined, "--format", "json")
    recorded = json.loads((baselined / "baseline.json").read_text(encoding="utf-8"))["entries"]
    assert [(code, path) for code, path, _ in findings(now)] == [(e["code"], e["path"]) for e in recorded]  # same findings, moved
    code, out, err = check(baselined, "--baseline", "baseline.json", "--format", "json")
    assert findings(out) == []
    assert code == 0 and gone(err) == 0


def test_a_new_finding_is_still_reported(baselined):
    workers = baselined / "shop" / "workers.py"
    edit(workers, lambda s: "\n\n" + s + NEW_FINDING)
    lines = workers.read_text(encoding="utf-8").splitlines()
    new_line = max(i for i, line in enumerate(lines, 1) if "except asyncio.CancelledError:" in line)
    code, out, err = check(baselined, "--baseline", "baseline.json", "--format", "json")
    assert findings(out) == [("BG101", "shop/workers.py", new_line)]
    assert code == 1 and gone(err) == 0
    code, _, _ = check(baselined, "--baseline", "baseline.json", "--exit-zero")
    assert code == 0


def test_a_copy_of_a_recorded_finding_is_new(tmp_path):
    """Identical lines have distinct fingerprints: a baseline holding two does not hide a third."""
    source = "import asyncio\n" + "".join(f"\n\nasync def consumer{i}(queue):\n    try:\n        await queue.get()\n    except asyncio.CancelledError:\n        pass\n" for i in range(2))
    (tmp_path / "consumers.py").write_text(source, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.bgcheck]\npreview = true\n", encoding="utf-8")  # BG105 is in preview
    assert check(tmp_path, "--write-baseline", "b.json")[0] == 0
    (tmp_path / "consumers.py").write_text("\n\n" + source + "\n\nasync def consumer2(queue):\n    try:\n        await queue.get()\n    except asyncio.CancelledError:\n        pass\n", encoding="utf-8")
    code, out, _ = check(tmp_path, "--baseline", "b.json", "--format", "json")
    assert findings(out) == [("BG105", "consumers.py", 23)]
    assert code == 1


def test_baseline_counts_entries_that_no_longer_occur(baselined):
    _, out, _ = check(baselined, "--format", "json")
    before = findings(out)
    (baselined / "shop" / "outbox.py").unlink()
    shutil.copy(CLEAN / "shop" / "workers.py", baselined / "shop" / "workers.py")
    _, out, _ = check(baselined, "--format", "json")
    fixed = len(before) - len(findings(out))
    assert fixed == sum(1 for _, path, _ in before if path in ("shop/outbox.py", "shop/workers.py"))
    code, out, err = check(baselined, "--baseline", "baseline.json", "--format", "json")
    assert findings(out) == [] and code == 0
    assert gone(err) == fixed, err
    assert len(err.splitlines()) == 1 and "--write-baseline" in err


def test_one_entry_that_no_longer_occurs(baselined):
    edit(baselined / "shop" / "billing.py", lambda s: s.replace("    except:  # a failed charge", "    except:  # noqa: BG104 - a failed charge"))
    code, out, err = check(baselined, "--baseline", "baseline.json", "--format", "json")
    assert findings(out) == [] and code == 0
    assert gone(err) == 1, err


def test_baseline_filters_every_format(baselined):
    edit(baselined / "shop" / "workers.py", lambda s: s + NEW_FINDING)
    _, sarif, _ = check(baselined, "--baseline", "baseline.json", "--format", "sarif")
    assert [r["ruleId"] for r in json.loads(sarif)["runs"][0]["results"]] == ["BG101"]
    _, annotations, _ = check(baselined, "--baseline", "baseline.json", "--format", "github")
    assert len(annotations.splitlines()) == 1 and annotations.startswith("::error file=shop/workers.py,")
    _, published, _ = check(baselined, "--baseline", "baseline.json", "--format", "lsp")
    assert [item["code"] for params in json.loads(published) for item in params["diagnostics"]] == ["BG101"]
    code, text, _ = check(baselined, "--baseline", "baseline.json")
    assert code == 1 and "Found 1 problem" in text


def test_fingerprints_do_not_depend_on_the_cache(demo):
    """A baseline written without the cache matches results read back from it."""
    assert check(demo, "--write-baseline", "b.json")[0] == 0
    for _ in range(2):  # the first run fills the cache, the second reads every result from it
        code, out, err = check(demo, "--baseline", "b.json", "--format", "json", cache=True)
        assert findings(out) == [] and code == 0 and gone(err) == 0
    assert (demo / ".cache-for-test").is_dir()


def test_lines_are_counted_as_python_counts_them(tmp_path):
    """Form feeds are not line breaks: the fingerprint is of the flagged line, not of a comment above it."""
    source = "import asyncio\n\x0c\n\x0c\n\x0c\nasync def consumer(queue):\n    # comment A\n    try:\n        await queue.get()\n    except asyncio.CancelledError:\n        pass\n"
    (tmp_path / "consumer.py").write_text(source, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.bgcheck]\npreview = true\n", encoding="utf-8")  # BG105 is in preview
    code, out, _ = check(tmp_path, "--format", "json")
    assert findings(out) == [("BG105", "consumer.py", 9)]
    assert check(tmp_path, "--write-baseline", "b.json")[0] == 0
    (tmp_path / "consumer.py").write_text(source.replace("comment A", "comment B"), encoding="utf-8")
    code, out, err = check(tmp_path, "--baseline", "b.json", "--format", "json")
    assert findings(out) == [] and code == 0 and gone(err) == 0


# ---------------------------------------------------------------------------
# bad baselines


@pytest.mark.parametrize(
    "content, says",
    [
        ("{not json", "not valid JSON"),
        ("[]", "not a bgcheck baseline"),
        ('{"tool": "ruff", "entries": []}', "not a bgcheck baseline"),
        ('{"tool": "bgcheck", "entries": {}}', "not a bgcheck baseline"),
        ('{"tool": "bgcheck", "version": 1, "entries": [{"code": "BG101", "path": "a.py"}]}', "entry 0"),
        ('{"tool": "bgcheck", "version": 1, "entries": [["BG101", "a.py", "abc"]]}', "entry 0"),
        ('{"tool": "bgcheck", "version": 99, "entries": []}', "version"),
        ("", "not valid JSON"),
    ],
)
def test_a_corrupt_baseline_exits_2_with_one_line(demo, content, says):
    (demo / "baseline.json").write_text(content, encoding="utf-8")
    code, out, err = check(demo, "--baseline", "baseline.json")
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1, err
    assert err.startswith("bgcheck: error: baseline.json: ") and says in err, err
    assert "Traceback" not in err


HOSTILE_BASELINES = {
    "nested-100k-deep": ('{"tool": "bgcheck", "entries": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    "5000-digit-version": ('{"tool": "bgcheck", "version": ' + "1" * 5000 + ', "entries": []}', "a number of 5000 digits"),
    "5000-digit-entry": ('{"tool": "bgcheck", "entries": [' + "9" * 5000 + "]}", "a number of 5000 digits"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_BASELINES))
def test_a_hostile_baseline_exits_2_with_one_short_line(demo, name):
    content, says = HOSTILE_BASELINES[name]
    (demo / "baseline.json").write_text(content, encoding="utf-8")
    code, out, err = check(demo, "--baseline", "baseline.json")
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and len(err) < 300, err
    assert err.startswith("bgcheck: error: baseline.json: ") and says in err, err


def test_a_baseline_with_a_long_but_sane_number_is_read(baselined):
    """The other direction: the limits refuse the absurd, not a baseline with a large version number."""
    path = baselined / "baseline.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    assert check(baselined, "--baseline", "baseline.json")[0] == 0
    document["version"] = 10**50
    path.write_text(json.dumps(document), encoding="utf-8")
    code, _out, err = check(baselined, "--baseline", "baseline.json")
    assert code == 2 and "format version" in err  # read, then refused for what it says


@pytest.mark.parametrize("target", ["/dev/zero", "folder"])
def test_a_baseline_that_is_not_a_file_is_refused_at_once(demo, target):
    import subprocess
    import sys

    (demo / "folder").mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "bgcheck", "check", "--no-cache", "-j", "1", "--baseline", target],
        cwd=demo, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"bgcheck: error: {target}: cannot read the baseline: not a regular file"), done.stderr


def test_write_baseline_over_a_device_is_refused(demo):
    code, _out, err = check(demo, "--write-baseline", "/dev/null")
    assert code == 2 and err == "bgcheck: error: /dev/null: cannot write the baseline: not a regular file\n"
    assert Path("/dev/null").is_char_device()


def test_undecodable_baseline_exits_2_with_one_line(demo):
    (demo / "baseline.json").write_bytes(b"\xff\xfe\x00garbage")
    code, out, err = check(demo, "--baseline", "baseline.json")
    assert code == 2 and len(err.splitlines()) == 1 and err.startswith("bgcheck: error: baseline.json: ")


def test_a_baseline_saved_with_a_byte_order_mark_is_read(baselined):
    path = baselined / "baseline.json"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    code, out, err = check(baselined, "--baseline", "baseline.json", "--format", "json")
    assert findings(out) == [] and code == 0 and err == ""


def test_a_missing_baseline_exits_2_with_one_line(demo):
    code, out, err = check(demo, "--baseline", "missing.json")
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("bgcheck: error: missing.json: "), err


def test_a_bad_baseline_fails_even_with_exit_zero(demo):
    (demo / "baseline.json").write_text("{", encoding="utf-8")
    assert check(demo, "--baseline", "baseline.json", "--exit-zero")[0] == 2


def test_checking_a_few_files_does_not_count_the_others_as_gone(baselined):
    """pre-commit passes only the changed files: the other files' entries are not "gone"."""
    code, out, err = check(baselined, "--baseline", "baseline.json", "--format", "json", "shop/workers.py")
    assert findings(out) == [] and code == 0
    assert gone(err) == 0, err


def test_selecting_some_codes_does_not_count_the_others_as_gone(baselined):
    code, out, err = check(baselined, "--baseline", "baseline.json", "--format", "json", "--select", "BG1")
    assert findings(out) == [] and code == 0
    assert gone(err) == 0, err
