"""The result cache: re-runs are near instant when little has changed.

Three kinds of entry, each a pickle of plain data under
``<root>/.bgcheck_cache/v<version>/``:

* ``summaries/``: a file's phase-1 result (its summary, or its BG000), keyed
  by the file's bytes, its path, its module name and bgcheck's version;
* ``index/``: the project index with all its models, keyed by the digest of
  every summary plus the configuration and the runtimes;
* ``results/``: a file's diagnostics, keyed by the file's bytes, the project
  digest, the configuration and the enabled rules.

A file's diagnostics can depend on any other module (a callee starts moving
money, a settings module turns on ``acks_late``), so the project digest is
part of every result key: when any summary changes, every file is checked
again, from its cached summary; a change inside a function body that leaves
every summary alone (a message, a comment) reuses everything.

Keys are digests of a canonical form of their parts (sets sorted,
dataclasses field by field), so they are the same in every process whatever
the hash seed: a key that changed from run to run would never hit.

Writes are atomic (write to a temporary file, then rename). An entry that
cannot be read (corrupt, truncated, written by another version, a folder
where a file should be) is ignored and rewritten; the cache never makes a
run fail.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import os
import pickle
import shutil
import sys
import tempfile
from pathlib import Path, PurePath
from typing import Any, Optional

import bgcheck

CACHE_DIR_NAME = ".bgcheck_cache"


def _canonical(value: Any) -> Any:
    """``value`` in a form whose repr does not depend on the hash seed (sets and
    frozensets sorted) nor on how a class spells its repr (dataclasses field by field)."""
    if isinstance(value, (str, bytes, int, float, bool, type(None), enum.Enum)):
        return value
    if isinstance(value, PurePath):
        return ("path", value.as_posix())
    if isinstance(value, (set, frozenset)):
        return ("set", sorted((_canonical(item) for item in value), key=repr))
    if isinstance(value, dict):
        return ("dict", sorted(((_canonical(k), _canonical(v)) for k, v in value.items()), key=repr))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_canonical(item) for item in value])
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (
            type(value).__qualname__,
            [(f.name, _canonical(getattr(value, f.name))) for f in dataclasses.fields(value)],
        )
    return value


def digest(*parts: Any) -> str:
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, bytes):
            h.update(part)
        else:
            h.update(repr(_canonical(part)).encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def version_tag() -> str:
    """The cache's namespace: bgcheck's version (read at each use, never frozen at import)
    and the Python version (pickles and CPython's syntax-error messages differ between them)."""
    return f"v{bgcheck.__version__}-py{sys.version_info[0]}.{sys.version_info[1]}"


class Cache:
    def __init__(self, directory: Path) -> None:
        self.root = Path(directory)
        self.version = version_tag()
        self.base = self.root / self.version
        self.hits = 0
        self.misses = 0
        self._ready = False

    def _prepare(self) -> None:
        if self._ready:
            return
        self.base.mkdir(parents=True, exist_ok=True)
        ignore = self.root / ".gitignore"
        if not ignore.exists():
            _atomic_write(ignore, b"# Created by bgcheck: this folder is a cache.\n*\n")
        tag = self.root / "CACHEDIR.TAG"
        if not tag.exists():
            _atomic_write(tag, b"Signature: 8a477f597d28d172789f06886806bc55\n# bgcheck cache\n")
        self._ready = True

    def _path(self, kind: str, key: str) -> Path:
        return self.base / kind / key[:2] / f"{key}.pickle"

    def has_kind(self, kind: str) -> bool:
        """Has any entry of this kind ever been written (a first run has none)?"""
        return (self.base / kind).is_dir()

    def has(self, kind: str, key: str) -> bool:
        """Is there an entry (not read, so not checked)? A cheap test before choosing how to run."""
        return self._path(kind, key).is_file()

    def get(self, kind: str, key: str) -> Any:
        """The stored value, or ``None`` when absent or unreadable."""
        path = self._path(kind, key)
        try:
            with open(path, "rb") as handle:
                stored_key, stored_version, value = pickle.load(handle)
            # anything but this exact key and version (another entry's pickle copied over, another
            # bgcheck's format) is foreign
            valid = type(stored_key) is str and stored_key == key and type(stored_version) is str and stored_version == self.version
        except Exception:  # missing, corrupt, truncated, a folder, from another bgcheck: ignore and rewrite
            valid = False
        if not valid:
            self.misses += 1
            return None
        self.hits += 1
        return value

    def discard(self) -> None:
        """Count the value ``get`` just returned as a miss: the caller found it unusable (the
        right key over a value of the wrong shape) and rewrites it with ``put``."""
        self.hits -= 1
        self.misses += 1

    def put(self, kind: str, key: str, value: Any) -> None:
        try:
            self._prepare()
            data = pickle.dumps((key, self.version, value), protocol=pickle.HIGHEST_PROTOCOL)
            path = self._path(kind, key)
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)  # a folder where the entry should be: cannot be replaced otherwise
            _atomic_write(path, data)
        except Exception:  # unwritable folder, full disk, unpicklable value: the cache only costs time
            pass


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def open_cache(config, cache_dir: Optional[Path], enabled: bool) -> Optional[Cache]:
    if not enabled:
        return None
    if cache_dir is None and not config.in_project:
        return None  # a lone file outside any project gets no cache folder beside it
    return Cache(Path(cache_dir) if cache_dir else Path(config.root) / CACHE_DIR_NAME)
