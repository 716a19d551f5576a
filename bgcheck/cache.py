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

Writes are atomic (write to a temporary file, then rename). An entry that
cannot be read (corrupt, truncated, written by another version) is ignored
and rewritten; the cache never makes a run fail.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any, Optional

from bgcheck import __version__

CACHE_DIR_NAME = ".bgcheck_cache"
_MISSING = object()


def digest(*parts: Any) -> str:
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, bytes):
            h.update(part)
        else:
            h.update(repr(part).encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


class Cache:
    def __init__(self, directory: Path) -> None:
        self.root = Path(directory)
        self.base = self.root / f"v{__version__}"
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

    def get(self, kind: str, key: str) -> Any:
        """The stored value, or ``None`` when absent or unreadable."""
        path = self._path(kind, key)
        try:
            with open(path, "rb") as handle:
                stored_key, value = pickle.load(handle)
        except FileNotFoundError:
            self.misses += 1
            return None
        except Exception:  # corrupt, truncated, or from another bgcheck: ignore and rewrite
            self.misses += 1
            return None
        if stored_key != key:
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, kind: str, key: str, value: Any) -> None:
        try:
            self._prepare()
            data = pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)
            _atomic_write(self._path(kind, key), data)
        except (OSError, pickle.PicklingError, RecursionError, TypeError):
            pass  # a cache that cannot be written only costs time


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
    return Cache(Path(cache_dir) if cache_dir else Path(config.root) / CACHE_DIR_NAME)
