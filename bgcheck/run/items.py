"""Which files a run analyses and which it reports: the paths named on the command line
(or the stdin buffer) within their project, as (path, display path) items."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional, Sequence

from bgcheck.load.config import Config
from bgcheck.load.files import FolderMemory, discover_real
from bgcheck.load.source import display_path


def file_items(paths: Sequence[Path], config: Config, cwd: Optional[Path], skipped: Optional[list] = None) -> list[tuple[Path, str]]:
    """(path, display path) of every file the run checks; ``skipped`` gets (path, reason, warn)
    for what the walk left out (see files.discover)."""
    return [(path, display) for path, display, _real in _found(paths, config, cwd, skipped, None)]


def _found(paths, config: Config, cwd: Optional[Path], skipped: Optional[list], remembered: Optional[FolderMemory]) -> list[tuple[Path, str, str]]:
    """(path, display path, real path) of every file the walk of ``paths`` finds."""
    cwd = cwd or Path.cwd()

    def on_skip(path: str, reason: str, warn: bool) -> None:
        if skipped is not None:
            skipped.append((display_path(Path(path), cwd) + ("/" if path.endswith("/") else ""), reason, warn))

    found = discover_real([Path(p) for p in paths], config.root, config.all_excludes(), on_skip, remembered, config.force_exclude)
    return [(path, display_path(path, cwd), real) for path, real in found]


def project_items(
    paths: Sequence[Path], config: Config, cwd: Optional[Path], skipped: Optional[list] = None, remembered: Optional[FolderMemory] = None
) -> tuple[list[tuple[Path, str]], Optional[frozenset[str]]]:
    """The files a run analyses, and the display paths it reports (None: all of them).

    Named files (pre-commit passes the staged files, editors the one being edited) are checked
    against the whole project, the configuration's folder or the nearest pyproject.toml,
    setup.cfg or .git: a task file checked alone still sees the Celery app and settings that
    live in other files, and gets exactly the findings a whole-project run gives it. Folders
    name the project part to index, as before; outside any project the named files are all.
    ``skipped``: what the walk of the named paths left out (see ``file_items``); ``remembered``:
    the last run's folder records (load/file_states.py FolderStates)."""
    named_real = {real: (path, display) for path, display, real in _found(paths, config, cwd, skipped, remembered)}
    if not named_real:  # every named path excluded (--force-exclude): nothing to check, no project to index
        return [], None
    if not config.in_project or not any(Path(p).is_file() for p in paths):
        return list(named_real.values()), None
    by_real = {real: (path, display) for path, display, real in _found([config.root], config, cwd, None, remembered)}
    if named_real.keys() == by_real.keys():
        return list(named_real.values()), None
    by_real.update(named_real)  # spelled as the user named them
    items = sorted(by_real.values(), key=lambda item: item[0].as_posix())
    return items, frozenset(display for _path, display in named_real.values())


def stdin_items(
    path: Path, config: Config, cwd: Optional[Path], skipped: Optional[list] = None
) -> tuple[list[tuple[Path, str]], frozenset[str]]:
    """The files a run over stdin analyses: its project's files, with ``path`` (which need not
    exist) standing for the stdin text and reported as given."""
    shown = Path(path).as_posix()
    items = [(Path(path), shown)]
    if config.in_project:
        real = os.path.realpath(path)
        items += [(found, display) for found, display, found_real in _found([config.root], config, cwd, skipped, None) if found_real != real]
        items.sort(key=lambda item: item[0].as_posix())
    return items, frozenset([shown])
