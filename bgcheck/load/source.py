"""Reading a file: its bytes (within the size limit), its text (decoded as the interpreter
decodes it), the path it is shown as and the module it is (from the package layout)."""

from __future__ import annotations

import os
import re
import tokenize
from io import BytesIO
from pathlib import Path
from typing import Optional

from bgcheck.diagnostics import Diagnostic
from bgcheck.load.bg000 import bg000
from bgcheck.load.files import FileTooLarge, NotRegularFile, read_regular


MAX_FILE_BYTES = 8 * 1024 * 1024


def display_path(path: Path, cwd: Optional[Path] = None) -> str:
    cwd = cwd or Path.cwd()
    absolute = os.path.abspath(path)
    base = os.fspath(cwd)
    if os.sep == "/" and os.path.isabs(base):  # the common case as string operations (a warm run shows every file)
        base = base.rstrip("/")
        if absolute == base:
            return "."
        if absolute.startswith(base + "/"):
            return absolute[len(base) + 1 :]
        if base:
            return absolute  # already normalised (os.path.abspath): what Path(absolute).as_posix() gives
    try:
        return Path(absolute).relative_to(cwd).as_posix()
    except ValueError:
        return Path(absolute).as_posix()


def module_name(path: Path, folders: Optional[dict] = None) -> tuple[str, bool]:
    """``pkg/sub/mod.py`` -> ("pkg.sub.mod", False) when pkg holds ``__init__.py`` (sub may be a
    namespace package inside it).
    ``folders``: what one run learnt of each folder (whether it holds ``__init__.py``, and the
    package it is), remembered across the files of the run."""
    absolute = os.path.abspath(path)
    folder, name = os.path.split(absolute)
    is_package = name == "__init__.py"
    parts = list(_package_parts(folder, folders))
    if not is_package:
        parts.append(os.path.splitext(name)[0])  # Path(name).stem, without a Path
    if not parts:  # a lone __init__.py outside any package
        parts.append(os.path.basename(os.path.dirname(absolute)) or "__init__")
    return ".".join(parts), is_package


def _package_parts(folder: str, folders: Optional[dict]) -> tuple[str, ...]:
    """The dotted parts of the package a folder is (outermost first): () when it is none. A folder
    is a package when it holds ``__init__.py``, or when it lies in a package without one of its
    own: a namespace package inside a regular one (``app/utils/`` beside ``app/__init__.py``),
    which ``import app.utils.timers`` finds as Python does (PEP 420)."""
    key = "\0package " + folder  # never a folder's path: beside the folders' ``__init__.py`` flags
    if folders is not None and key in folders:
        return folders[key]
    parent = os.path.dirname(folder)
    parts: tuple[str, ...] = ()
    if parent != folder:
        outer = _package_parts(parent, folders)
        if outer or _holds_init(folder, folders):
            parts = (*outer, os.path.basename(folder))
    if folders is not None:
        folders[key] = parts
    return parts


def _holds_init(folder: str, folders: Optional[dict]) -> bool:
    if folders is None:
        return os.path.isfile(os.path.join(folder, "__init__.py"))
    if folder not in folders:
        folders[folder] = os.path.isfile(os.path.join(folder, "__init__.py"))
    return folders[folder]


def decode_source(data: bytes) -> str:
    """Decode like the interpreter: BOM, then a coding cookie, else UTF-8."""
    encoding, _ = tokenize.detect_encoding(BytesIO(data).readline)
    text = data.decode(encoding)
    return normalize_newlines(text[1:] if text.startswith("\ufeff") else text)


_LONE_CR = re.compile(r"\r(?!\n)")


def normalize_newlines(text: str) -> str:
    """A lone ``\\r`` ends a line for Python and for editors: made a ``\\n``, so that every line
    count (positions, noqa, code frames) agrees. Lines and columns are unchanged."""
    return _LONE_CR.sub("\n", text) if "\r" in text else text


def read_source(path: Path, display: str) -> tuple[Optional[bytes], Optional[Diagnostic]]:
    """A file's bytes, or the BG000 that says why it is not analysed (too large, unreadable,
    not a regular file: a named pipe would block the run, a device never end)."""
    try:
        return read_regular(path, MAX_FILE_BYTES), None
    except FileTooLarge as exc:
        return None, bg000(display, f"file not analysed: {exc.size / 1048576:.1f} MiB is over the {MAX_FILE_BYTES // 1048576} MiB limit")
    except NotRegularFile as exc:
        return None, bg000(display, f"file not analysed: {exc.strerror}")
    except OSError as exc:
        return None, bg000(display, f"file not analysed: cannot read it ({exc.strerror or exc})")
