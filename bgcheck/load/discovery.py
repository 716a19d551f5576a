"""Finding a project: its configuration file and root, as every run finds them (load_config) and
the check server's client finds its server (bgcheck/server.py, which imports this and not the
configuration's tables)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from bgcheck.load.errors import ConfigError
from bgcheck.load.files import read_regular

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

CONFIG_FILENAME = "bgcheck.toml"
PYPROJECT_FILENAME = "pyproject.toml"
# A configuration file is read as data, with the limit of the files the user names.
MAX_CONFIG_BYTES = 64 * 1024 * 1024


def display_path(path: Path) -> str:
    """The path as the user would want to see it: relative to the cwd when inside it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except (ValueError, OSError):
        return str(path)


def read_toml(path: Path, allow_pipe: bool = False) -> dict[str, Any]:
    """A configuration file; ``allow_pipe`` for one the user named (``--config``): a file
    found by walking up is read only if it is a regular file."""
    name = display_path(path)
    try:
        text = read_regular(path, MAX_CONFIG_BYTES, allow_pipe).decode("utf-8")
    except OSError as exc:
        raise ConfigError(f"{name}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        reason = f"not UTF-8 text ({exc.reason} at byte {exc.start})"
        raise ConfigError(f"{name}: cannot read: {reason}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{name}: invalid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{name}: invalid TOML: nested too deeply") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise ConfigError(f"{name}: invalid TOML: {exc}".split(";")[0]) from None


def tool_table(data: dict[str, Any], path: Path) -> dict[str, Any] | None:
    """The [tool.bgcheck] table of parsed TOML, or None if there is none."""
    tool = data.get("tool")
    if not isinstance(tool, dict) or "bgcheck" not in tool:
        return None
    table = tool["bgcheck"]
    if not isinstance(table, dict):
        raise ConfigError(f"{display_path(path)}: tool.bgcheck: expected a table, got {table!r}")
    return table


def start_dir(start: Path | None) -> Path:
    directory = Path(start if start is not None else Path.cwd()).resolve()
    return directory.parent if directory.is_file() else directory


# Files and folders that mark a project's root when no configuration file does.
ROOT_MARKERS = (PYPROJECT_FILENAME, "setup.cfg", ".git")


def discover(start: Path) -> tuple[Path | None, Path | None]:
    """Walk up from `start`: (config file or None, the nearest folder holding a root marker
    (pyproject.toml, setup.cfg, .git), or None)."""
    first_root: Path | None = None
    for directory in (start, *start.parents):
        candidate = directory / CONFIG_FILENAME
        if candidate.is_file():
            return candidate, first_root
        if first_root is None and any((directory / marker).exists() for marker in ROOT_MARKERS):
            first_root = directory
        pyproject = directory / PYPROJECT_FILENAME
        if pyproject.is_file() and tool_table(read_toml(pyproject), pyproject) is not None:
            return pyproject, first_root
    return None, first_root


def project_root(config_file: Path | None = None, start: Path | None = None) -> tuple[Path | None, Path, bool]:
    """(the configuration file or None, the project root, whether the root is a project's) as
    load_config finds them: the check server's client (bgcheck/server.py) finds its server so."""
    if config_file is not None:
        path = Path(config_file).resolve()
        return path, path.parent, True
    directory = start_dir(start)
    found, first_root = discover(directory)
    if found is not None:
        return found, found.parent, True
    # No settings anywhere: a pyproject.toml, setup.cfg or .git still marks the root.
    return None, first_root or directory, first_root is not None




CACHE_DIR_NAME = ".bgcheck_cache"


def cache_folder(root: Path, in_project: bool, cache_dir: Path | None) -> Path | None:
    """Where a run's cache lives: ``--cache-dir``, else ``.bgcheck_cache`` at the project root, or
    in the working folder when no configuration, ``pyproject.toml``, ``setup.cfg`` or ``.git``
    marks a root (as ruff's ``.ruff_cache``); None for none (load/cache.py opens it; the check
    server's client finds its server by it)."""
    if cache_dir:
        return Path(cache_dir)
    default = (Path(root) if in_project else Path(os.getcwd())) / CACHE_DIR_NAME
    if default.is_symlink():
        return None  # a link in the project would send bgcheck's writes wherever it points
    return default
