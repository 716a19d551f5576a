"""``bgcheck check --watch``: check, then check again whenever a file that can change the result
changes (a ``*.py`` file under the paths checked, or a configuration file), until Ctrl-C. A
polling loop over the files' stats: no dependency, and cheap next to a run."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

POLL_SECONDS = 0.5
# Reruns before watch() returns, None: until Ctrl-C; and how it waits. Tests bound and drive them.
ROUNDS: Optional[int] = None
SLEEP: Callable[[float], None] = time.sleep
_WATCHED_NAMES = ("pyproject.toml", "bgcheck.toml", ".gitignore")
_SKIPPED_FOLDERS = (".git", ".bgcheck_cache", "__pycache__", ".venv", "venv", "node_modules")


def snapshot(paths: Sequence[Path], extra: Sequence[Path] = ()) -> dict[str, tuple[int, int]]:
    """path -> (mtime in ns, size) of every watched file."""
    states: dict[str, tuple[int, int]] = {}

    def add(path: str) -> None:
        try:
            info = os.stat(path)
        except OSError:
            return
        states[path] = (info.st_mtime_ns, info.st_size)

    for given in [*paths, *extra]:
        if not os.path.isdir(given):
            add(os.fspath(given))
            continue
        for folder, dirs, files in os.walk(given):
            dirs[:] = [name for name in dirs if name not in _SKIPPED_FOLDERS]
            for name in files:
                if name.endswith(".py") or name in _WATCHED_NAMES:
                    add(os.path.join(folder, name))
    return states


def watch(run_once: Callable[[], None], paths: Sequence[Path], extra: Sequence[Path], say: Callable[[str], None]) -> None:
    """Run ``run_once``, then again after each change to the watched files."""
    say("Watching for file changes (Ctrl-C to stop).")
    run_once()
    before = snapshot(paths, extra)
    rounds = ROUNDS
    while rounds is None or rounds > 0:
        SLEEP(POLL_SECONDS)
        now = snapshot(paths, extra)
        if now == before:
            continue
        say("File change detected: checking again.")
        run_once()
        before = now  # a change made during the run is seen by the next poll
        if rounds is not None:
            rounds -= 1
