"""Rule fixtures: each rule's findings, as files with the expected findings marked in comments.

Every registered rule (and BG000) has a folder ``tests/rules/<CODE>/``. It is a small project:
Python files whose expected findings are marked on the reported line, as flake8-async's test
files do::

    except asyncio.CancelledError:  # error: BG101
    except asyncio.CancelledError:  # error: 5, BG101      (the finding's 1-based column too)
    task = asyncio.create_task(job())  # error: BG602  error: BG601   (two findings on one line)

A line without a marker must not be flagged, by any rule: each fixture has cases that must stay
silent, each with a short comment saying why. A case that needs a project of its own (several
modules that would disturb the others, ``[tool.bgcheck]`` settings such as ``replicas``) is a
sub-folder holding its own ``pyproject.toml``; every such folder is checked as a separate
project, the rule's folder itself as one more (its ``pyproject.toml`` is optional). Fixtures run
in preview mode: what a rule finds does not depend on whether it is in preview.

Markers are read with ``tokenize``; bgcheck never reads them (comments never decide a finding,
and tests/test_comments.py checks it on these fixtures too).

``tests/rules/<CODE>/snapshot.txt`` holds the rule fixture's whole output in the ``text`` format
without colour (message, span, notes), compared exactly, so that a change to what a rule says
shows as a diff. After a deliberate change, regenerate the snapshots and review the diff::

    BGCHECK_UPDATE_SNAPSHOTS=1 pytest tests/test_rule_fixtures.py
    git diff tests/rules/

Adding a rule means its module in ``bgcheck/rules/``, its page in ``rules/`` and its folder here.
"""

from __future__ import annotations

import dataclasses
import io
import os
import re
import shutil
import tokenize
from pathlib import Path
from typing import Callable, Optional

import pytest

from bgcheck.diagnostics import BG000_CODE
from bgcheck.load.config import load_config
from bgcheck.report import REPORTERS, ReportOptions
from bgcheck.rules import REGISTRY
from bgcheck.run.engine import RunRequest, run

RULES_DIR = Path(__file__).resolve().parent / "rules"
SNAPSHOT = "snapshot.txt"
UPDATE = os.environ.get("BGCHECK_UPDATE_SNAPSHOTS") == "1"
MARKER = re.compile(r"\berror:\s*(?:(\d+)\s*,\s*)?(BG\d{3})\b")
FOLDERS = sorted(p for p in RULES_DIR.iterdir() if p.is_dir()) if RULES_DIR.is_dir() else []


def projects_of(folder: Path) -> list[Path]:
    """Every sub-folder holding a pyproject.toml, and the rule's folder unless all its modules
    are in those: each is a project."""
    nested = sorted(p.parent for p in folder.rglob("pyproject.toml") if p.parent != folder)
    own = [m for m in folder.rglob("*.py") if not any(project in m.parents for project in nested)]
    return ([folder] if own else []) + nested


def copy_project(folder: Path, project: Path, target: Path, transform: Callable[[str], str] = lambda text: text) -> Path:
    """Copy ``project`` (a project of the rule ``folder``) to ``target/<rule>/<its relative path>``
    without the projects nested in it, each Python file passed through ``transform``; return the
    copy. The rule's folder gets an empty ``[tool.bgcheck]`` when it has no pyproject.toml."""
    nested = [p for p in projects_of(folder) if p != project and project in p.parents]
    copy = target / folder.name / project.relative_to(folder)

    def ignore(directory: str, names: list[str]) -> list[str]:
        here = Path(directory)
        return [n for n in names if here / n in nested or n == SNAPSHOT or n == "__pycache__"]

    shutil.copytree(project, copy, ignore=ignore)
    for path in copy.rglob("*.py"):
        path.write_text(transform(path.read_text(encoding="utf-8")), encoding="utf-8")
    if not (copy / "pyproject.toml").exists():
        (copy / "pyproject.toml").write_text("[tool.bgcheck]\n", encoding="utf-8")
    return copy


def check_project(copy: Path, shown_from: Path, monkeypatch):
    """Run bgcheck (preview rules on) over a project copy; paths are shown relative to ``shown_from``."""
    monkeypatch.chdir(shown_from)
    config = dataclasses.replace(load_config(start=copy), preview=True)
    return run(RunRequest([copy.relative_to(shown_from)], config, cwd=shown_from))


def markers(folder: Path) -> set[tuple[str, int, Optional[int], str]]:
    """(path from the rule's folder, line, column or None, code) of every ``# error:`` marker."""
    found = set()
    for path in sorted(folder.rglob("*.py")):
        shown = path.relative_to(folder).as_posix()
        for line, comment in _comments(path.read_text(encoding="utf-8")):
            for column, code in MARKER.findall(comment):
                found.add((shown, line, int(column) if column else None, code))
    return found


def _comments(source: str) -> list[tuple[int, str]]:
    """(line, text) of every comment; for a file that does not tokenize to the end (BG000's
    fixtures), the comments before the error."""
    comments = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                comments.append((token.start[0], token.string))
    except (tokenize.TokenError, SyntaxError):
        pass
    return comments


@dataclasses.dataclass
class FixtureRun:
    diagnostics: list  # every project's findings, paths from the rule's folder
    snapshot: str


_RUNS: dict[str, FixtureRun] = {}


def run_fixture(folder: Path, tmp_path_factory, monkeypatch) -> FixtureRun:
    """Check every project of a rule's folder once per test session."""
    if folder.name not in _RUNS:
        target = tmp_path_factory.mktemp("rule-fixture")
        diagnostics, parts = [], []
        for project in projects_of(folder):
            copy = copy_project(folder, project, target)
            result = check_project(copy, target / folder.name, monkeypatch)
            diagnostics += result.diagnostics
            shown = Path(folder.name, project.relative_to(folder)).as_posix()
            parts.append(f"# project: {shown}\n" + REPORTERS["text"](result, ReportOptions(show_source=True)))
        _RUNS[folder.name] = FixtureRun(diagnostics, "\n".join(parts))
    return _RUNS[folder.name]


def test_every_rule_has_a_fixture_folder():
    codes = set(REGISTRY) | {BG000_CODE}
    folders = {folder.name for folder in FOLDERS}
    assert not codes - folders, f"rules without a fixture folder in tests/rules/: {sorted(codes - folders)}"
    assert not folders - codes, f"fixture folders of no registered rule: {sorted(folders - codes)}"


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_findings_are_the_marked_ones(folder, tmp_path_factory, monkeypatch):
    fixture = run_fixture(folder, tmp_path_factory, monkeypatch)
    marked = markers(folder)
    expected = {(path, line, code) for path, line, _column, code in marked}
    found = {(d.location.path, d.location.line, d.code): d for d in fixture.diagnostics}
    problems = [f"not marked: {p}:{line}: {code} {found[(p, line, code)].message}" for p, line, code in sorted(found.keys() - expected)]
    problems += [f"marked, not found: {p}:{line}: {code}" for p, line, code in sorted(expected - found.keys())]
    for path, line, column, code in sorted(marked, key=str):
        d = found.get((path, line, code))
        if column is not None and d is not None and d.location.column != column:
            problems.append(f"column: {path}:{line}: {code} is at column {d.location.column}, marked {column}")
    assert not problems, f"tests/rules/{folder.name}:\n" + "\n".join(problems)
    assert any(d.code == folder.name for d in fixture.diagnostics), f"tests/rules/{folder.name} has no finding of its rule"


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_fixture_has_silent_cases(folder):
    """A fixture shows what its rule must not flag too: some module has no finding of the rule."""
    flagged = {path for path, _line, _column, code in markers(folder) if code == folder.name}
    modules = {path.relative_to(folder).as_posix() for path in folder.rglob("*.py")}
    assert modules - flagged, f"tests/rules/{folder.name}: every module has a finding; add cases that must stay silent"


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_snapshot(folder, tmp_path_factory, monkeypatch):
    """The rule fixture's whole output; BGCHECK_UPDATE_SNAPSHOTS=1 rewrites it."""
    actual = run_fixture(folder, tmp_path_factory, monkeypatch).snapshot
    path = folder / SNAPSHOT
    if UPDATE:
        path.write_text(actual, encoding="utf-8")
        return
    assert path.is_file(), f"no {path.relative_to(RULES_DIR.parent.parent)}: run BGCHECK_UPDATE_SNAPSHOTS=1 pytest tests/test_rule_fixtures.py"
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        import difflib

        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "snapshot.txt", "now"))
        pytest.fail(f"tests/rules/{folder.name}/{SNAPSHOT} differs (BGCHECK_UPDATE_SNAPSHOTS=1 to accept):\n{diff}")
