"""Which files a run analyses and which it reports: the paths named on the command line
(or the stdin buffer) within their project, as (path, display path) items."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional, Sequence

from bgcheck.load.config import Config
from bgcheck.load.files import discover
from bgcheck.load.source import display_path


def file_items(paths: Sequence[Path], config: Config, cwd: Optional[Path], skipped: Optional[list] = None) -> list[tuple[Path, str]]:
    """(path, display path) of every file the run checks; ``skipped`` gets (path, reason, warn)
    for what the walk left out (see files.discover)."""
    cwd = cwd or Path.cwd()

    def on_skip(path: str, reason: str, warn: bool) -> None:
        if skipped is not None:
            skipped.append((display_path(Path(path), cwd) + ("/" if path.endswith("/") else ""), reason, warn))

    files = discover([Path(p) for p in paths], config.root, config.all_excludes(), on_skip)
    return [(path, display_path(path, cwd)) for path in files]


def project_items(
    paths: Sequence[Path], config: Config, cwd: Optional[Path], skipped: Optional[list] = None
) -> tuple[list[tuple[Path, str]], Optional[frozenset[str]]]:
    """The files a run analyses, and the display paths it reports (None: all of them).

    Named files (pre-commit passes the staged files, editors the one being edited) are checked
    against the whole project, the configuration's folder or the nearest pyproject.toml,
    setup.cfg or .git: a task file checked alone still sees the Celery app and settings that
    live in other files, and gets exactly the findings a whole-project run gives it. Folders
    name the project part to index, as before; outside any project the named files are all.
    ``skipped``: what the walk of the named paths left out (see ``file_items``)."""
    named = file_items(paths, config, cwd, skipped)
    if not config.in_project or not any(Path(p).is_file() for p in paths):
        return named, None
    real = _RealPaths()
    by_real = {real(path): (path, display) for path, display in file_items([config.root], config, cwd)}
    named_real = {real(path): (path, display) for path, display in named}
    if named_real.keys() == by_real.keys():
        return named, None
    by_real.update(named_real)  # spelled as the user named them
    items = sorted(by_real.values(), key=lambda item: item[0].as_posix())
    return items, frozenset(display for _path, display in named_real.values())


class _RealPaths:
    """``os.path.realpath`` of many files, their folders resolved once each: a file that is not a
    link is its folder's real path and its name (one lstat, not one per part of the path)."""

    def __init__(self) -> None:
        self.folders: dict[str, str] = {}

    def __call__(self, path) -> str:
        absolute = os.path.abspath(path)
        folder, name = os.path.split(absolute)
        if not name or name in (".", "..") or os.path.islink(absolute):
            return os.path.realpath(absolute)
        real = self.folders.get(folder)
        if real is None:
            real = self.folders[folder] = os.path.realpath(folder)
        return os.path.join(real, name)


def stdin_items(
    path: Path, config: Config, cwd: Optional[Path], skipped: Optional[list] = None
) -> tuple[list[tuple[Path, str]], frozenset[str]]:
    """The files a run over stdin analyses: its project's files, with ``path`` (which need not
    exist) standing for the stdin text and reported as given."""
    shown = Path(path).as_posix()
    items = [(Path(path), shown)]
    if config.in_project:
        real = os.path.realpath(path)
        items += [item for item in file_items([config.root], config, cwd, skipped) if os.path.realpath(item[0]) != real]
        items.sort(key=lambda item: item[0].as_posix())
    return items, frozenset([shown])
