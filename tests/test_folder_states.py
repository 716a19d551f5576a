"""Folder states (load/file_states.py FolderStates): a warm walk takes a folder whose stat and
.gitignore files are as the last run recorded from that record instead of listing it. Whatever
changes between two runs, the walk must find exactly what a walk without records finds: files and
folders added, removed or renamed at any depth, a .gitignore added, edited or removed, a link, a
virtualenv, other exclude patterns, a record written too soon after a change."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from bgcheck.load import file_states, files
from bgcheck.load.cache import Cache
from bgcheck.load.file_states import FolderStates
from bgcheck.load.files import discover

from test_files import make

TREE = {
    "app/__init__.py": "", "app/tasks.py": "", "app/billing/charge.py": "", "app/billing/data.json": "",
    "app/deep/er/est/x.py": "", "docs/conf.py": "", "docs/guide/index.rst": "", "tests/test_app.py": "",
    "build/gen.py": "", ".hidden/h.py": "", "empty/": "",
}


@pytest.fixture
def settled_at_once(monkeypatch):
    """Record folders however recent they are (the racy margin is tested on its own below)."""
    monkeypatch.setattr(file_states, "RACY_NS", 0)


@pytest.fixture
def scans(monkeypatch) -> list:
    """The folders the walk lists (relative to the walk's start)."""
    seen: list = []
    real = files._scan

    def scan(folder, rel, given, on_skip):
        seen.append(rel)
        return real(folder, rel, given, on_skip)

    monkeypatch.setattr(files, "_scan", scan)
    return seen


class Walks:
    def __init__(self, base: Path, cache_dir: Path, exclude=("build",)) -> None:
        self.base, self.cache_dir, self.cache, self.exclude = base, cache_dir, Cache(cache_dir), list(exclude)

    def remembered(self, paths=None) -> list[str]:
        """A walk with the records of the last one (then saved, as a run does)."""
        states = FolderStates(self.cache, self.base, self.exclude)
        result = discover(paths or [self.base], self.base, self.exclude, remembered=states)
        states.save()
        return [p.relative_to(self.base).as_posix() for p in result]

    def fresh(self, paths=None) -> list[str]:
        return [p.relative_to(self.base).as_posix() for p in discover(paths or [self.base], self.base, self.exclude)]


@pytest.fixture
def walks(tmp_path, settled_at_once) -> Walks:
    base = tmp_path / "proj"
    make(base, TREE)
    return Walks(base, tmp_path / "cache")


def later() -> None:
    """Past the file system's timestamp granularity: a change now gives a folder a new stat."""
    time.sleep(0.05)


def test_a_warm_walk_lists_no_unchanged_folder(walks, scans):
    first = walks.remembered()
    assert first == walks.fresh() == ["app/__init__.py", "app/billing/charge.py", "app/deep/er/est/x.py", "app/tasks.py", "docs/conf.py", "tests/test_app.py"]
    scans.clear()
    assert walks.remembered() == first
    assert scans == []


def _rename_folder(base: Path) -> None:
    (base / "app/billing").rename(base / "app/payments")


CHANGES = {
    "a file added deep down": lambda base: (base / "app/deep/er/est/y.py").write_text(""),
    "a file removed": lambda base: (base / "app/tasks.py").unlink(),
    "a file renamed to a non-Python name": lambda base: (base / "docs/conf.py").rename(base / "docs/conf.txt"),
    "a file of another kind renamed to a Python name": lambda base: (base / "app/billing/data.json").rename(base / "app/billing/data.py"),
    "a folder renamed": _rename_folder,
    "a folder removed": lambda base: shutil.rmtree(base / "app/deep"),
    "a folder added with files": lambda base: make(base, {"new/pkg/mod.py": ""}),
    "a file in an empty folder": lambda base: (base / "empty/e.py").write_text(""),
    "a folder made hidden": lambda base: (base / "docs").rename(base / ".docs"),
    "an excluded name given to a folder": lambda base: (base / "tests").rename(base / "app/build"),
    "a .gitignore added": lambda base: (base / "app/.gitignore").write_text("billing/\n"),
    "a .gitignore added at the top": lambda base: (base / ".gitignore").write_text("*.py\n!app/\n"),
    "a virtualenv made of a folder": lambda base: (base / "docs/pyvenv.cfg").write_text("home = /usr\n"),
    "a link to a Python file added": lambda base: os.symlink(base / "app/tasks.py", base / "docs/linked.py"),
    "a link to a folder added": lambda base: os.symlink(base / "app", base / "docs/app_link"),
    "a file replaced by a folder of the same name": lambda base: (base / "docs/conf.py").unlink() or make(base, {"docs/conf.py/inner.py": ""}),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_warm_walk_finds_what_a_fresh_walk_finds(walks, change):
    walks.remembered()
    later()
    CHANGES[change](walks.base)
    assert walks.remembered() == walks.fresh()
    assert walks.remembered() == walks.fresh()  # and the records written after the change hold


@pytest.mark.parametrize("content", ["tasks.py\n", "charge.py\n!x.py\n", ""])
def test_an_edited_gitignore_is_honoured(walks, content):
    """Editing a .gitignore changes its own stat, not its folder's: the folders under it are listed again."""
    (walks.base / "app/.gitignore").write_text("charge.py\n")
    (walks.base / ".gitignore").write_text("docs/\n")
    first = walks.remembered()
    assert "app/billing/charge.py" not in first and "docs/conf.py" not in first
    later()
    (walks.base / "app/.gitignore").write_text(content)
    assert walks.remembered() == walks.fresh()
    later()
    (walks.base / ".gitignore").write_text("tests/\n")  # the same size
    assert walks.remembered() == walks.fresh()
    assert "docs/conf.py" in walks.fresh()


def test_a_gitignore_removed_or_turned_into_a_folder(walks):
    (walks.base / "app/.gitignore").write_text("billing/\n")
    assert "app/billing/charge.py" not in walks.remembered()
    later()
    (walks.base / "app/.gitignore").unlink()
    assert walks.remembered() == walks.fresh()
    later()
    (walks.base / "app/.gitignore").mkdir()
    assert walks.remembered() == walks.fresh()
    assert "app/billing/charge.py" in walks.fresh()


def test_other_exclude_patterns_use_other_records(walks, scans):
    walks.remembered()
    other = Walks(walks.base, walks.cache_dir, exclude=("docs",))
    assert other.remembered() == other.fresh()
    assert "build/gen.py" in other.fresh() and "docs/conf.py" not in other.fresh()
    scans.clear()
    walks.remembered()
    assert scans == []  # each set of patterns keeps its own records


def test_a_sub_folder_walk_and_a_whole_walk_each_keep_their_records(walks, scans):
    walks.remembered()
    sub = [walks.base / "app"]
    assert walks.remembered(sub) == walks.fresh(sub)
    scans.clear()
    walks.remembered(sub)
    walks.remembered()
    assert scans == []


def test_a_folder_with_a_link_in_it_is_listed_every_time(walks, scans):
    os.symlink(walks.base / "app/tasks.py", walks.base / "docs/linked.py")
    walks.remembered()
    scans.clear()
    later()
    (walks.base / "app/tasks.py").unlink()  # the link breaks; its folder's stat does not change
    warm = walks.remembered()
    assert sorted(scans) == ["app/", "docs/"]  # the folder the file left, and the folder with the link
    assert warm == walks.fresh()
    assert "docs/linked.py" not in warm


def test_a_folder_changed_too_recently_is_not_recorded(tmp_path, scans):
    """With the default margin a folder written just now is listed again next time: a change
    within the timestamp granularity would keep its stat."""
    base = tmp_path / "proj"
    make(base, TREE)
    walks = Walks(base, tmp_path / "cache")
    walks.remembered()
    scans.clear()
    (base / "app/billing/late.py").write_text("")  # maybe the same tick: must be found all the same
    assert "app/billing/late.py" in walks.remembered()
    assert "app/billing/" in scans


def test_a_corrupt_or_foreign_record_is_a_miss(walks, scans):
    walks.remembered()
    entry = next(walks.cache_dir.rglob("folders/*/*"))
    header, _, body = entry.read_text().partition("\n")
    for bad in (body.replace('"app/"', '"../"'), body.replace("tasks.py", "../../etc/passwd"), body[:-5], body.replace("tasks.py", "tasks.txt")):
        entry.write_text(header + "\n" + bad)
        scans.clear()
        assert walks.remembered() == walks.fresh()
        assert scans  # listed again, and the record rewritten


def test_a_file_added_to_a_recorded_folder_is_checked_by_the_next_run(tmp_path, monkeypatch, settled_at_once):
    """End to end: the whole project run, then a new task module beside the others, then a named
    run of another file (pre-commit): the new module is part of the project the findings see."""
    from test_cache import BILLING_MOVES_MONEY, CELERY_CONFIG, CELERY_PROJECT, TASK_BG603, Runs, found
    from conftest import write_project

    root = tmp_path / "svc"
    write_project(root, CELERY_PROJECT, CELERY_CONFIG)
    runs = Runs(root, monkeypatch)
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    assert found(runs.check()[1]) == TASK_BG603
    later()
    (root / "proj" / "more.py").write_text((root / "proj" / "tasks.py").read_text())
    warm = runs.check()
    assert warm == runs.fresh()
    assert {path for path, _line, _code in found(warm[1])} == {"proj/more.py", "proj/tasks.py"}
