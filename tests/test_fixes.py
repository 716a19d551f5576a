"""Fixes: ``bgcheck check --fix`` / ``--unsafe-fixes`` / ``--diff``, against golden files.

Each folder of ``tests/fixes/`` is one case: ``before.py`` is checked as a file of a small project
(``example.py``, or the path its first line names as ``# file: pkg/mod.py``; the folder's other
files are the rest of the project, and its configuration when it has a ``pyproject.toml``). ``after.py`` is what ``--fix`` makes of it (no file: nothing
changes) and ``after_unsafe.py`` what ``--fix --unsafe-fixes`` makes of it (no file: as
``after.py``). Every result must parse, and a second run must change nothing.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import libcst as cst
import pytest
from click.testing import CliRunner

from bgcheck.cli import main
from bgcheck.diagnostics import Applicability, Diagnostic, Edit, Fix, Location, Severity
from bgcheck.run.fixes import apply_pass

FIXES_DIR = Path(__file__).resolve().parent / "fixes"
CASES = sorted(p for p in FIXES_DIR.iterdir() if p.is_dir())
GOLDEN = ("before.py", "after.py", "after_unsafe.py")


def invoke(*args: str, input: bytes | None = None):
    return CliRunner().invoke(main, [*args, "--no-cache"], input=input, catch_exceptions=False)


def make_project(case: Path, root: Path) -> Path:
    """The case's project under ``root``; returns the path (relative to root) ``before.py`` is at."""
    for path in case.rglob("*"):
        rel = path.relative_to(case)
        if path.is_file() and rel.as_posix() not in GOLDEN:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, root / rel)
    if not (case / "pyproject.toml").is_file():  # a case may bring its own configuration
        (root / "pyproject.toml").write_text("[tool.bgcheck]\npreview = true\n", encoding="utf-8")
    before = (case / "before.py").read_text(encoding="utf-8")
    first = before.splitlines()[0]
    target = Path(first.removeprefix("# file:").strip()) if first.startswith("# file:") else Path("example.py")
    (root / target).parent.mkdir(parents=True, exist_ok=True)
    (root / target).write_text(before, encoding="utf-8")
    return target


def expected(case: Path, unsafe: bool) -> str:
    for name in (["after_unsafe.py"] if unsafe else []) + ["after.py", "before.py"]:
        if (case / name).is_file():
            return (case / name).read_text(encoding="utf-8")
    raise AssertionError("unreachable")


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_golden_fix(case, unsafe, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = make_project(case, tmp_path)
    before = target.read_text(encoding="utf-8")
    flags = ["--fix", "--unsafe-fixes"] if unsafe else ["--fix"]
    first = invoke("check", target.as_posix(), *flags)
    assert first.exit_code in (0, 1), first.output
    fixed = target.read_text(encoding="utf-8")
    assert fixed == expected(case, unsafe)
    cst.parse_module(fixed)  # still parses
    if fixed != before:
        assert "Fixed " in first.output
    second = invoke("check", target.as_posix(), *flags)
    assert target.read_text(encoding="utf-8") == fixed, "a second --fix changes nothing"
    assert "Fixed " not in second.output
    assert "[*]" not in second.output, "nothing this run could fix is left"


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_golden_diff_writes_nothing(case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = make_project(case, tmp_path)
    before = target.read_text(encoding="utf-8")
    result = invoke("check", target.as_posix(), "--diff", "--unsafe-fixes")
    assert target.read_text(encoding="utf-8") == before
    after = expected(case, unsafe=True)
    assert result.exit_code == (1 if after != before else 0)
    if after != before:
        assert result.stdout.startswith(f"--- a/{target.as_posix()}\n+++ b/{target.as_posix()}\n")
        removed = [line[1:] for line in result.stdout.splitlines()[2:] if line.startswith("-")]
        added = [line[1:] for line in result.stdout.splitlines()[2:] if line.startswith("+")]
        assert set(removed) <= set(before.splitlines()) and set(added) <= set(after.splitlines())


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_golden_fix_from_stdin_prints_the_fixed_source(case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = make_project(case, tmp_path)
    before = target.read_bytes()
    result = invoke("check", "-", "--stdin-filename", target.as_posix(), "--fix", "--unsafe-fixes", input=before)
    assert result.stdout_bytes.decode("utf-8") == expected(case, unsafe=True)
    assert target.read_bytes() == before, "stdin input: the file on disk is not written"


def test_fixable_findings_are_marked_and_counted(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = make_project(FIXES_DIR / "BG102", tmp_path)
    plain = invoke("check", target.as_posix())
    assert plain.exit_code == 1
    assert "[*]" not in plain.stdout  # the BG102 fix is unsafe: not fixable by --fix alone
    assert "2 more fixes available with `--unsafe-fixes`" in plain.stdout
    offered = invoke("check", target.as_posix(), "--unsafe-fixes")
    assert offered.stdout.count(" BG102 [*] ") == 2
    assert "[*] 2 fixable with `--fix --unsafe-fixes`." in offered.stdout
    document = json.loads(invoke("check", target.as_posix(), "--format", "json").stdout)
    fixes = [d["fix"] for d in document["diagnostics"]]
    assert [f["applicability"] for f in fixes if f] == ["unsafe", "unsafe"]
    assert fixes[0]["message"] == "Catch `Exception` instead"
    assert fixes[0]["edits"][0] == {"content": "Exception", "location": {"row": 12, "column": 16}, "end_location": {"row": 12, "column": 29}}
    assert None in fixes, "a finding with no clear fix says so (the third BG102)"


def test_fix_with_nothing_to_fix_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = make_project(FIXES_DIR / "BG102", tmp_path)
    stat = target.stat()
    result = invoke("check", target.as_posix(), "--fix")  # only unsafe fixes here
    assert result.exit_code == 1 and "Fixed" not in result.stdout
    assert target.stat().st_mtime_ns == stat.st_mtime_ns


def test_check_without_fix_never_writes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = make_project(FIXES_DIR / "BG102", tmp_path)
    before = target.read_bytes()
    invoke("check", target.as_posix(), "--unsafe-fixes")
    assert target.read_bytes() == before


def test_fixed_file_keeps_its_encoding_and_bom(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = make_project(FIXES_DIR / "BG102", tmp_path)
    text = "# -*- coding: latin-1 -*-\n# café\n" + target.read_text(encoding="utf-8")
    target.write_bytes(text.encode("latin-1"))
    invoke("check", target.as_posix(), "--fix", "--unsafe-fixes")
    fixed = target.read_bytes().decode("latin-1")
    assert "# café" in fixed and "except Exception:  # keep polling" in fixed
    bom = b"\xef\xbb\xbf" + (FIXES_DIR / "BG102" / "before.py").read_bytes()
    target.write_bytes(bom)
    invoke("check", target.as_posix(), "--fix", "--unsafe-fixes")
    assert target.read_bytes() == b"\xef\xbb\xbf" + (FIXES_DIR / "BG102" / "after_unsafe.py").read_bytes()


# ---------------------------------------------------------------------------
# one pass, on synthetic fixes


def _finding(code: str, *edits: Edit, applicability=Applicability.SAFE) -> Diagnostic:
    return Diagnostic(code, "n", Severity.ERROR, "m", Location("x.py", 1, 1, 1, 1), fix=Fix(applicability, "f", edits))


def test_overlapping_fixes_wait_for_the_next_pass():
    text = "a = 1\nb = 2\n"
    first = _finding("BG101", Edit(1, 1, 1, 2, "x"))
    overlapping = _finding("BG102", Edit(1, 1, 1, 6, "y = 3"))
    elsewhere = _finding("BG103", Edit(2, 5, 2, 6, "4"))
    fixed, applied = apply_pass(text, [overlapping, first, elsewhere], unsafe=False)
    assert fixed == "x = 1\nb = 4\n"
    assert applied == [first, elsewhere]


def test_a_fix_never_touches_a_line_under_noqa_for_its_code():
    text = "a = 1\nb = 2  # noqa: BG101\nc = 3  # noqa: BG999\n"
    on_noqa = _finding("BG101", Edit(2, 5, 2, 6, "9"))
    other_code = _finding("BG101", Edit(3, 5, 3, 6, "9"))
    fixed, applied = apply_pass(text, [on_noqa, other_code], unsafe=False)
    assert fixed == "a = 1\nb = 2  # noqa: BG101\nc = 9  # noqa: BG999\n"
    assert applied == [other_code]


def test_unsafe_fixes_apply_only_when_asked():
    text = "a = 1\n"
    unsafe = _finding("BG101", Edit(1, 5, 1, 6, "2"), applicability=Applicability.UNSAFE)
    assert apply_pass(text, [unsafe], unsafe=False) == (text, [])
    assert apply_pass(text, [unsafe], unsafe=True) == ("a = 2\n", [unsafe])


def test_stale_positions_are_not_applied():
    text = "a = 1\n"
    beyond = _finding("BG101", Edit(1, 5, 1, 40, "2"))
    missing_line = _finding("BG101", Edit(7, 1, 7, 1, "x"))
    assert apply_pass(text, [beyond, missing_line], unsafe=True) == (text, [])


def test_the_same_fix_offered_twice_is_made_once():
    text = "a = 1\n"
    one = _finding("BG101", Edit(1, 1, 1, 1, "import x\n"))
    two = _finding("BG102", Edit(1, 1, 1, 1, "import x\n"))
    assert apply_pass(text, [one, two], unsafe=False) == ("import x\na = 1\n", [one, two])


def test_crlf_lines():
    text = "a = 1\r\nb = 2\r\n"
    fix = _finding("BG101", Edit(2, 5, 2, 6, "3"))
    assert apply_pass(text, [fix], unsafe=False)[0] == "a = 1\r\nb = 3\r\n"


# ---------------------------------------------------------------------------
# every fix is documented and has golden files

from bgcheck.rules import all_rules  # noqa: E402

PAGES_DIR = Path(__file__).resolve().parent.parent / "rules"


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_rule_page_says_whether_its_fix_is_safe(rule):
    page = (PAGES_DIR / f"{rule.code}.md").read_text(encoding="utf-8")
    use_instead = page.split("## Use instead", 1)[1].split("\n## ", 1)[0]
    stated = [line.split()[1].rstrip(".,:") for line in use_instead.splitlines() if line.startswith("Fix: ")]
    if rule.fixable:
        assert stated == [rule.fixable], f"{rule.code}.md: '## Use instead' must say 'Fix: {rule.fixable} ... because ...'"
        assert any(case.name.split("_")[0] == rule.code for case in CASES), f"no golden files for {rule.code} in tests/fixes/"
    else:
        assert stated in ([], ["none"]), f"{rule.code}.md says its fix is {stated}, but the rule offers none"
