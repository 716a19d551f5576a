"""File states (load/file_states.py): a warm run takes an unchanged file's content key from its
recorded size, times and inode instead of reading it. Every shortcut must give exactly the
results of a run without the cache: an edit that keeps the size and puts the modification time
back, an edit within the timestamp granularity, a file that changes during the run, a package
marker added above a file, a named file served from the bundle of the whole project."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bgcheck.load import file_states
from bgcheck.load.cache import Cache
from bgcheck.load.file_states import FileStates

from test_cache import BILLING_MOVES_MONEY, CELERY_CONFIG, CELERY_PROJECT, TASK_BG603, Runs, found
from conftest import write_project

REPO = Path(__file__).resolve().parent.parent

# Two findings of BG103 (`return` in `finally:` of a coroutine) at lines 7 and 14; SHIFTED has
# the same size and moves the second one to line 13.
SWALLOW = """\
import asyncio

async def total(client):
    try:
        return await client.count()
    finally:
        return 0


async def again(client):
    try:
        return await client.count()
    finally:
        return 1
"""
_LAST = "    finally:\n        return 1\n"
SHIFTED = SWALLOW.replace(_LAST, "    finally: return 1\n" + "#" * (len(_LAST) - 23) + "\n")


@pytest.fixture
def states_at_once(monkeypatch):
    """Record every file's state, however recent (the tests edit files right after a run; the
    racy-file margin is tested on its own below)."""
    monkeypatch.setattr(file_states, "RACY_NS", 0)


@pytest.fixture
def celery_project(tmp_path, monkeypatch, states_at_once) -> Runs:
    root = tmp_path / "svc"
    write_project(root, CELERY_PROJECT, CELERY_CONFIG)
    return Runs(root, monkeypatch)


@pytest.fixture
def reads(monkeypatch) -> list:
    """The display paths whose bytes phase 1 reads (load/source.py: read_source)."""
    from bgcheck.load import unit

    seen: list = []
    real = unit.read_source

    def read_source(path, display):
        seen.append(display)
        return real(path, display)

    monkeypatch.setattr(unit, "read_source", read_source)
    return seen


def test_a_warm_run_reads_no_unchanged_file(celery_project, reads):
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    first = runs.cached()
    reads.clear()
    assert runs.check() == first
    assert found(first[1]) == TASK_BG603
    assert reads == ["proj/tasks.py"]  # only the file with a finding, for its code frame
    assert runs.parsed == runs.checked == []


def test_only_the_edited_file_is_read(celery_project, reads):
    """A comment changes the file's bytes, not its summary: no other file is read."""
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    runs.cached()
    runs.write("proj/unrelated.py", "def helper():\n    return 1  # another comment\n")
    reads.clear()
    warm = runs.check()
    assert reads == ["proj/unrelated.py", "proj/tasks.py"]  # tasks.py: its finding's code frame
    assert found(warm[1]) == TASK_BG603 and warm == runs.fresh()


def test_same_size_edit_with_the_modification_time_put_back(tmp_path, monkeypatch, states_at_once):
    """The change time moves on any write and cannot be set back: the edit is seen."""
    write_project(tmp_path, {"worker.py": SWALLOW})
    runs = Runs(tmp_path, monkeypatch)
    assert [d["line"] for d in runs.cached()[1]] == [7, 14]
    path = tmp_path / "worker.py"
    before = os.stat(path)
    assert len(SHIFTED) == len(SWALLOW)
    path.write_text(SHIFTED, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(path).st_size == before.st_size and os.stat(path).st_mtime_ns == before.st_mtime_ns
    assert [d["line"] for d in runs.cached()[1]] == [7, 13]


def test_a_file_changed_within_the_margin_is_not_recorded(tmp_path):
    """A file whose times are within RACY_NS of the run's start could be written again within
    the same timestamp tick: it is read and hashed again next time, never trusted."""
    path = tmp_path / "fresh.py"
    path.write_text("x = 1\n", encoding="utf-8")
    cache = Cache(tmp_path / "cache")
    states = FileStates(cache, tmp_path)
    assert states.lookup(path, "fresh.py") is None  # nothing recorded yet; the stat is taken
    states.remember(path, "fresh.py", "key", "digest", None)
    assert states.current == {}
    states.started_ns = max(os.stat(path).st_mtime_ns, os.stat(path).st_ctime_ns) + file_states.RACY_NS + 1
    states.remember(path, "fresh.py", "key", "digest", None)  # the same file, old enough
    states.save()
    again = FileStates(cache, tmp_path)
    assert again.lookup(path, "fresh.py").content_key == "key"
    assert again.lookup(path, "shown/otherwise.py") is None  # the display path is part of the key
    path.write_text("x = 2\n", encoding="utf-8")
    assert FileStates(cache, tmp_path).lookup(path, "fresh.py") is None


def test_a_file_that_changes_during_the_run_is_read_again(tmp_path, monkeypatch, states_at_once):
    """The state matched when the run looked, the bytes changed before the run read the text:
    the run starts over, reading every file, and reports what a fresh run reports."""
    write_project(tmp_path, {"worker.py": SWALLOW})
    runs = Runs(tmp_path, monkeypatch)
    runs.cached()
    stale = FileStates(Cache(tmp_path / ".bgcheck_cache"), tmp_path).known
    (tmp_path / "worker.py").write_text(SHIFTED, encoding="utf-8")

    def lookup(self, path, display):  # as if the stat had been taken before the edit
        self.stat(path)
        return stale.get(os.path.abspath(path))

    monkeypatch.setattr(FileStates, "lookup", lookup)
    assert [d["line"] for d in runs.check()[1]] == [7, 13]
    monkeypatch.undo()
    assert runs.check() == runs.fresh()


def test_a_package_marker_added_above_an_unchanged_file(celery_project):
    """The module name is part of a file's content key: a state is used only for the same name."""
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    assert found(runs.cached()[1], "BG603") == TASK_BG603
    (runs.root / "proj" / "__init__.py").unlink()
    assert found(runs.cached()[1], "BG603") == []
    runs.write("proj/__init__.py", "")
    assert found(runs.cached()[1], "BG603") == TASK_BG603


def test_a_named_file_takes_its_results_from_the_bundle(celery_project):
    runs = celery_project
    runs.write("proj/billing.py", BILLING_MOVES_MONEY)
    whole = runs.cached()
    runs.monkeypatch.chdir(runs.root)
    named = runs.check("proj/tasks.py")
    assert runs.parsed == runs.checked == []
    assert found(named[1]) == found(whole[1]) == TASK_BG603
    assert named == runs.fresh("proj/tasks.py")


# Runs the CLI on a project as `bgcheck check` does, then prints the modules it imported.
PROBE = textwrap.dedent(
    """
    import contextlib, io, json, runpy, sys
    from bgcheck.load import file_states
    file_states.RACY_NS = 0  # the files were just written
    sys.argv = ["bgcheck", "check", ".", "--exit-zero"]
    with contextlib.redirect_stdout(io.StringIO()) as out:
        try:
            runpy.run_module("bgcheck", run_name="__main__")
        except SystemExit:
            pass
    print(json.dumps({"out": out.getvalue(), "libcst": "libcst" in sys.modules}))
    """
)


def test_a_warm_run_with_nothing_changed_imports_no_parser(tmp_path):
    write_project(tmp_path, {"worker.py": SWALLOW})
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    runs = [json.loads(subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout) for _ in range(2)]
    assert runs[0]["libcst"] and not runs[1]["libcst"]
    assert runs[0]["out"] == runs[1]["out"] and "worker.py:14" in runs[1]["out"]


def test_a_run_on_several_processes_records_the_states_too(tmp_path, monkeypatch, states_at_once, reads):
    """After a cold run on worker processes, the next run reads no unchanged file either."""
    files = {f"pkg/mod{i}.py": f"def f{i}():\n    return {i}\n" for i in range(40)}
    write_project(tmp_path, {"pkg/__init__.py": "", **files, "worker.py": SWALLOW})
    runs = Runs(tmp_path, monkeypatch)
    runs.check("--jobs", "2")
    reads.clear()
    warm = runs.check("--jobs", "2")
    assert reads == ["worker.py"]  # its findings' code frame
    assert warm == runs.fresh()


def test_a_run_that_learns_no_new_state_writes_none_and_a_stale_one_never_matches(tmp_path, monkeypatch, reads):
    """An edit just before a run (within the racy margin) leaves the file unrecorded: its old
    state stays in the entry, unwritten, and never matches the edited file; the run after reads it."""
    write_project(tmp_path, {"worker.py": SWALLOW, "other.py": "x = 1\n"})
    runs = Runs(tmp_path, monkeypatch)
    monkeypatch.setattr(file_states, "RACY_NS", 0)
    first = runs.cached()
    entry = next((tmp_path / ".bgcheck_cache").rglob("states/*/*"))
    written = entry.stat().st_mtime_ns
    monkeypatch.setattr(file_states, "RACY_NS", 3_000_000_000)  # every file is "just edited" from now on
    (tmp_path / "worker.py").write_text(SHIFTED, encoding="utf-8")
    shifted = runs.check()
    assert shifted == runs.fresh() and shifted != first
    assert entry.stat().st_mtime_ns == written  # nothing new learnt: the entry is as it was
    reads.clear()
    assert runs.check() == shifted
    assert "worker.py" in reads  # its old state does not match: read and hashed
