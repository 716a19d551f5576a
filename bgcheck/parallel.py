"""Per-file work on several processes (``--jobs N``).

Both phases are independent per file. Phase 1 sends back plain summaries
(never CSTs); phase 2 gets the project index and the configuration once per
worker (through the pool's initializer), then only file names and texts.
Output is identical to a serial run: results are put back in input order
and sorted by the caller.

Each task runs in a thread with a large stack: libcst walks trees
recursively, and a deeply nested file must end as a BG000, not a crash.
"""

from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Optional, Sequence

_STACK_BYTES = 256 * 1024 * 1024
_RECURSION_LIMIT = 20000
# Below this many files, starting processes costs more than it saves.
MIN_FILES_PER_WORKER = 16

_state: dict = {}


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def workers_for(jobs: Optional[int], count: int) -> int:
    jobs = default_jobs() if not jobs else jobs
    return max(1, min(jobs, count // MIN_FILES_PER_WORKER))


def _in_big_stack(function: Callable, *args):
    outcome: dict = {}

    def target() -> None:
        try:
            outcome["value"] = function(*args)
        except BaseException as exc:  # handed back to the caller's process
            outcome["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _init_worker(state: dict) -> None:
    threading.stack_size(_STACK_BYTES)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), _RECURSION_LIMIT))
    _state.clear()
    _state.update(state)


def _phase1_task(item):
    from bgcheck.engine import load_unit

    path, display = item
    unit = _in_big_stack(load_unit, path, display, _state.get("cache"))
    unit.module = None  # CSTs never cross processes
    return unit


def _phase2_task(unit):
    from bgcheck.engine import check_unit

    return _in_big_stack(check_unit, unit, _state["index"], _state["config"], _state["rules"])


def run_phase1(items: Sequence[tuple], jobs: int, cache) -> list:
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=({"cache": cache},)) as pool:
        return list(pool.map(_phase1_task, items, chunksize=max(1, len(items) // (jobs * 8) or 1)))


def run_phase2(units: Sequence, jobs: int, index, config, rules) -> list:
    state = {"index": index, "config": config, "rules": rules}
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(state,)) as pool:
        return list(pool.map(_phase2_task, units, chunksize=max(1, len(units) // (jobs * 8) or 1)))
