"""File states: what the last run learnt about each file, by the file's ``stat``, so that a warm
run does not read and hash files that have not changed.

A state records a file's size, modification and change times (nanoseconds) and inode, taken
*before* its bytes were read, with the content key of those bytes, the digest of its summary
and its BG000 (what a "digests" entry holds). A later run that finds the same four values, the
same display path and the same module name (the package layout can change around a file) takes
the content key from the state instead of reading the file; the text is read only if the run
needs it (load/unit.py: ensure_text), and then checked against the key.

Same-tick edits: a file written again within the file system's timestamp granularity after it
was recorded would keep its times. So a state is recorded only for a file whose modification and
change times are at least ``RACY_NS`` older than the start of the run that reads it (the "racy
file" rule of git's index): any later write gives the file a newer time. The change time cannot
be set back by a program (``touch -d`` or ``os.utime`` update it), so restoring a modification time
after an edit does not hide the edit either.

States live in the cache as one entry (kind "states") per working directory: one read per run.

Folder states do the same for the walk that finds the files (load/files.py): a folder's size,
times and inode change when an entry is added to it, removed or renamed, so a folder whose stat
is the recorded one, under .gitignore files whose stats are the recorded ones, holds the same
files and folders for the walk as it did: they are taken from the record instead of listing the
folder again. The same racy rule applies to folders and .gitignore files. Records live in one
entry (kind "folders") per walk: its start, the project root and the exclude patterns.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import NamedTuple, Optional

from bgcheck.diagnostics import Diagnostic
from bgcheck.load.cache import digest
from bgcheck.load.source import module_name

# A file modified or changed less than this before the run started is read and hashed again next time.
RACY_NS = 3_000_000_000


class FileState(NamedTuple):
    """One file's state (a tuple: thousands are read per run, and compared whole by ``save``)."""

    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int
    display: str
    module: str
    is_package: bool
    content_key: str
    summary_digest: str
    error: Optional[Diagnostic]

    def stat_matches(self, info: os.stat_result) -> bool:
        return (self.size, self.mtime_ns, self.ctime_ns, self.inode) == _identity(info)


def _identity(info: os.stat_result) -> tuple[int, int, int, int]:
    """What a file's or folder's state is recorded under: size, modification and change times, inode."""
    return info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino


def _settled(info: os.stat_result, started_ns: int) -> bool:
    """Old enough, at the start of the run, for its times to tell any later write (``RACY_NS``)."""
    return max(info.st_mtime_ns, info.st_ctime_ns) <= started_ns - RACY_NS


class FileStates:
    """The states of one working directory's files: read once from the cache, looked up per file,
    written back (when they changed) for the files of this run."""

    def __init__(self, cache, cwd: Optional[Path] = None) -> None:
        self.cache = cache
        self.key = digest("file-states", os.path.abspath(cwd or Path.cwd()))
        self.started_ns = time.time_ns()
        self.known: dict[str, FileState] = {}
        for path, row in (cache.get("states", self.key, counted=False) or {}).items():  # fields checked by serial.py
            self.known[path] = FileState._make(row)
        self.stats: dict[str, os.stat_result] = {}  # absolute path -> stat taken before reading
        self.current: dict[str, FileState] = {}  # this run's states, written by save()
        self.folders: dict = {}  # what this run learnt of folders: __init__.py, packages (module names)

    def lookup(self, path: Path, display: str) -> Optional[FileState]:
        """The recorded state of an unchanged file, or None (then the caller reads the file: its
        stat, taken here first, lets ``remember`` record it)."""
        absolute = self.stat(path)
        if absolute is None:
            return None
        state = self.current.get(absolute)
        if state is None:
            state = self.known.get(absolute)
            if state is None or state.display != display or not state.stat_matches(self.stats[absolute]):
                return None
            if module_name(absolute, self.folders) != (state.module, state.is_package):
                return None
            self.current[absolute] = state
        return state if state.display == display else None

    def stat(self, path: Path) -> Optional[str]:
        """Take the file's stat now, before its bytes are read (a write after it changes the stat)."""
        absolute = os.path.abspath(path)
        if absolute not in self.stats:
            try:
                self.stats[absolute] = os.stat(path)
            except OSError:
                return None
        return absolute

    def remember(self, path: Path, display: str, content_key: str, summary_digest: str, error) -> None:
        """Record what a file's bytes, read after ``stat``, gave; not for a file changed too recently."""
        info = self.stats.get(os.path.abspath(path))
        if info is None or not content_key or not _settled(info, self.started_ns):
            return
        name, is_package = module_name(path, self.folders)
        self.current[os.path.abspath(path)] = FileState(
            info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, display, name, is_package, content_key, summary_digest, error
        )

    def save(self) -> None:
        """Write this run's states when it learnt one the entry lacks. A state this run did not
        record (a file edited just now, or gone) is left in the entry: its stat never matches
        again (a change time cannot be set back), and rewriting every state to drop it would cost
        more than the next run's reading that one file."""
        if any(self.known.get(path) != state for path, state in self.current.items()):
            self.cache.put("states", self.key, dict(self.current))


class FolderStates:
    """The folder records of one run's walks (load/files.py FolderMemory): read from the cache
    per start folder, written back by ``save`` when the walk changed them."""

    def __init__(self, cache, root: Path, excludes) -> None:
        self.cache = cache
        self.root = os.path.realpath(root)
        self.excludes = tuple(excludes)
        self.started_ns = time.time_ns()
        self.walks: dict[str, _FolderRecords] = {}

    def signature(self, info: os.stat_result) -> Optional[str]:
        return ":".join(map(str, _identity(info))) if _settled(info, self.started_ns) else None

    def records(self, start: str) -> "_FolderRecords":
        if start not in self.walks:
            key = digest("folder-states", start, self.root, self.excludes)
            self.walks[start] = _FolderRecords(self, key, self.cache.get("folders", key, counted=False) or {})
        return self.walks[start]

    def save(self) -> None:
        for walk in self.walks.values():
            if walk.current != walk.known:
                self.cache.put("folders", walk.key, walk.current)


class _FolderRecords:
    """One walk's records: folder (relative to the start, as the walk spells it) -> (size,
    mtime_ns, ctime_ns, inode, ignores key, has a .gitignore, kept folder names, kept file names)."""

    def __init__(self, states: FolderStates, key: str, known: dict) -> None:
        self.states, self.key, self.known = states, key, known
        self.current: dict[str, tuple] = {}
        self.stats: dict[str, os.stat_result] = {}

    def recall(self, rel: str, folder: str):
        try:
            info = os.stat(folder)
        except OSError:
            return None  # listing it says why
        self.stats[rel] = info
        row = self.known.get(rel)
        if row is None or row[:4] != _identity(info):
            return None
        return row[4:]

    def record(self, rel: str, folder: str, key: str, has_gitignore: bool, dirs: list, files: list) -> None:
        info = self.stats.get(rel)
        if info is None or not _settled(info, self.states.started_ns):
            return
        self.current[rel] = (*_identity(info), key, has_gitignore, tuple(dirs), tuple(files))
