"""Per-file work on several processes (``--jobs N``).

Both phases are independent per file, and each runs on its own process pool:

- phase 1 (``phase1``): the workers read, parse and summarise files and send the units back
  (summaries and text; phase 1 keeps no CST);
- this process builds the project index from every summary;
- phase 2 (``phase2``): the workers check files against that index.

Files go out in small batches, the biggest first, to whichever worker is free: a worker that
drew slow files does not keep the other waiting at the end of a phase.

On Linux the phase-2 workers are forked once the index is built, so they inherit the index and
the units and nothing big is sent to them (pickling a 25 MB index for each worker, and each
worker unpickling it, was a fifth of a cold ``--jobs 2`` run on the benchmark corpus). Where
fork is not the safe choice (macOS, Windows), each worker is sent the index once, when it starts,
and each batch carries its units.

Output is identical to a serial run: results are put back in input order. Each batch runs in a
thread with a large stack (run/process.py): libcst walks trees recursively, and a deeply nested
file must end as a BG000, not a crash.
"""

from __future__ import annotations

import os
import sys
from typing import Optional, Sequence

from bgcheck.load.unit import load_unit
from bgcheck.run.process import in_big_stack, raise_recursion_limit, tune_gc

# Below this many files, starting processes costs more than it saves.
MIN_FILES_PER_WORKER = 16
# Files per batch: small enough that the last batches of a phase end together, large enough
# that sending them costs nothing next to the work (about 2 ms of work per file, cold).
BATCH_FILES = 8

# What a worker process works with: the phase-1 cache, or phase 2's index, configuration,
# rules and (when forked) units. Set by the pool's initializer, or inherited by a fork.
_state: dict = {}


class WorkerError(RuntimeError):
    """A worker process stopped (killed: out of memory, a signal) before it sent its results."""


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def workers_for(jobs: Optional[int], count: int) -> int:
    jobs = default_jobs() if not jobs else jobs
    return max(1, min(jobs, count // MIN_FILES_PER_WORKER))


def __getattr__(name: str):
    """``ProcessPoolExecutor`` is imported when a pool is first asked for: a warm run on one
    process starts none, and importing it (multiprocessing's connections) is a tenth of that run."""
    if name == "ProcessPoolExecutor":
        from concurrent.futures import ProcessPoolExecutor

        return ProcessPoolExecutor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def forks() -> bool:
    """Whether phase-2 workers are forked from this process (and inherit the index). Linux only:
    macOS's system libraries are not safe to use after a fork, and Windows has none."""
    import multiprocessing

    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def _init_worker(state: dict) -> None:
    tune_gc()  # (freezes what a forked worker inherited: the collector never scans it)
    raise_recursion_limit()
    if state:  # a forked worker keeps the state it inherited
        _state.clear()
        _state.update(state)


def _batches(sizes: Sequence[int]) -> list[list[int]]:
    """Positions in batches of BATCH_FILES, the biggest files first."""
    order = sorted(range(len(sizes)), key=lambda position: -sizes[position])
    return [order[start : start + BATCH_FILES] for start in range(0, len(order), BATCH_FILES)]


def _run_batches(tasks: list, jobs: int, state: dict, task, context=None) -> list:
    """``task(batch)`` for every batch on ``jobs`` processes; the replies, in batch order."""
    from concurrent.futures.process import BrokenProcessPool

    executor = globals().get("ProcessPoolExecutor") or __getattr__("ProcessPoolExecutor")
    try:
        with executor(max_workers=jobs, mp_context=context, initializer=_init_worker, initargs=(state,)) as pool:
            return list(pool.map(task, tasks))
    except BrokenProcessPool:
        raise WorkerError("a worker process stopped unexpectedly (killed, or out of memory); try --jobs 1") from None


# ---------------------------------------------------------------------------
# phase 1


def _phase1_task(batch: list) -> list:
    return in_big_stack(_load_batch, batch)


def _load_batch(batch: list) -> list:
    return [(position, load_unit(path, display, _state.get("cache"))) for position, (path, display) in batch]


def phase1(items: Sequence[tuple], jobs: int, cache) -> list:
    """Phase 1 for ``(path, display)`` items on ``jobs`` processes; the units in input order."""
    batches = [[(position, items[position]) for position in batch] for batch in _batches([_size(path) for path, _ in items])]
    units: list = [None] * len(items)
    for reply in _run_batches(batches, jobs, {"cache": cache}, _phase1_task):
        for position, unit in reply:
            units[position] = unit
    return units


# ---------------------------------------------------------------------------
# phase 2


def _phase2_task(batch: list) -> list:
    return in_big_stack(_check_batch, batch)


def _check_batch(batch: list) -> list:
    from bgcheck.run import check  # parsing and the rules: imported by the workers that use them

    index, config, rules = _state["index"], _state["config"], _state["rules"]
    out = []
    for position, unit in batch:
        unit = _state["units"][position] if unit is None else unit
        unit.index = index
        out.append(check.check_unit(unit, index, config, rules))
    return out


def phase2(units: Sequence, index, config, rules, jobs: int) -> list:
    """Each unit's diagnostics (in input order), checked on ``jobs`` processes. The units have
    their summaries and text (phase 1 or the cache gave them)."""
    import dataclasses
    import multiprocessing

    batches = _batches([len(unit.text) for unit in units])
    shared = {"index": index, "config": config, "rules": rules}
    if forks():
        _state.update(shared, units=units)  # the forked workers inherit it: nothing is sent
        try:
            tasks = [[(position, None) for position in batch] for batch in batches]
            replies = _run_batches(tasks, jobs, {}, _phase2_task, multiprocessing.get_context("fork"))
        finally:
            _state.clear()
    else:
        # the index goes to each worker once; a unit travels without it
        tasks = [[(position, dataclasses.replace(units[position], index=None)) for position in batch] for batch in batches]
        replies = _run_batches(tasks, jobs, shared, _phase2_task)
    results: list = [None] * len(units)
    for batch, reply in zip(batches, replies):
        for position, diagnostics in zip(batch, reply):
            results[position] = diagnostics
    return results


def _size(path) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
