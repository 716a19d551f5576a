"""Per-file work on several processes (``--jobs N``).

Both phases are independent per file. A run (``bgcheck check``) uses persistent
workers (``Workers``): each analyses a share of the files, keeps their CSTs, then
checks the same share against the project index it is sent once. ``bgcheck jobs``
needs phase 1 only (``run_phase1``: a process pool that sends back plain summaries,
never CSTs). Output is identical to a serial run: results are put back in input
order and sorted by the caller.

Each task runs in a thread with a large stack (run/process.py): libcst walks trees
recursively, and a deeply nested file must end as a BG000, not a crash.
"""

from __future__ import annotations

import os
from typing import Optional, Sequence

from bgcheck.load.unit import ensure_summary, load_unit
from bgcheck.run.process import in_big_stack, raise_recursion_limit, tune_gc

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


def _init_worker(state: dict) -> None:
    tune_gc()
    raise_recursion_limit()
    _state.clear()
    _state.update(state)


def _phase1_task(item):
    path, display = item
    return in_big_stack(load_unit, path, display, _state.get("cache"))  # (phase 1 keeps no CST)


def __getattr__(name: str):
    """``ProcessPoolExecutor`` is imported when a pool is first asked for: a warm run on one
    process starts none, and importing it (multiprocessing's connections) is a tenth of that run."""
    if name == "ProcessPoolExecutor":
        from concurrent.futures import ProcessPoolExecutor

        return ProcessPoolExecutor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def run_phase1(items: Sequence[tuple], jobs: int, cache) -> list:
    executor = globals().get("ProcessPoolExecutor") or __getattr__("ProcessPoolExecutor")
    with executor(max_workers=jobs, initializer=_init_worker, initargs=({"cache": cache},)) as pool:
        return list(pool.map(_phase1_task, items, chunksize=max(1, len(items) // (jobs * 8) or 1)))


# ---------------------------------------------------------------------------
# Persistent workers: each keeps the CSTs of its share of the files from
# phase 1 to phase 2, so no file is parsed twice. The project index and the
# configuration go to each worker once, in the phase-2 message.


def _worker_main(connection) -> None:
    tune_gc()
    raise_recursion_limit()
    in_big_stack(_worker_loop, connection)


def _worker_loop(connection) -> None:
    from bgcheck.run import check  # parsing and the rules: imported by the workers that use them

    units: dict = {}
    while True:
        try:
            message = connection.recv()
        except EOFError:
            return
        kind = message[0]
        try:
            if kind == "phase1":
                _, items, cache = message
                out = []
                for position, (path, display) in items:
                    unit = load_unit(path, display, cache)
                    units[unit.display] = unit
                    out.append((position, unit))
                connection.send(("ok", out))
            elif kind == "phase2":
                _, index, config, rules, displays, cache = message
                results = []
                for display in displays:
                    unit = ensure_summary(units[display], cache)
                    unit.index = index
                    results.append((display, check.check_unit(unit, index, config, rules)))
                connection.send(("ok", results))
            else:
                connection.send(("ok", None))
                return
        except BaseException as exc:  # reported to the parent, which raises it
            import traceback

            connection.send(("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))


class WorkerError(RuntimeError):
    """A worker process failed: the message carries its traceback."""


class Workers:
    """``jobs`` processes that each analyse a share of the files, then check the same share."""

    def __init__(self, jobs: int) -> None:
        import multiprocessing

        self.connections = []
        self.processes = []
        for _ in range(jobs):
            parent, child = multiprocessing.Pipe()
            process = multiprocessing.Process(target=_worker_main, args=(child,), daemon=True)
            process.start()
            child.close()
            self.connections.append(parent)
            self.processes.append(process)
        self.owner: dict[str, int] = {}  # display path -> worker index

    def _exchange(self, messages: list) -> list:
        for connection, process, message in zip(self.connections, self.processes, messages):
            try:
                connection.send(message)
            except OSError:  # BrokenPipeError: the worker is gone
                self._stopped(process)
        replies = []
        for connection, process in zip(self.connections, self.processes):
            try:
                status, payload = connection.recv()
            except (EOFError, OSError):
                self._stopped(process)
            if status != "ok":
                raise WorkerError(payload)
            replies.append(payload)
        return replies

    @staticmethod
    def _stopped(process) -> None:
        """A worker killed (out of memory, a signal) or crashed: say so, rather than EOFError."""
        process.join(timeout=1)
        raise WorkerError(f"a worker process stopped unexpectedly (exit code {process.exitcode}); try --jobs 1")

    def phase1(self, items: Sequence[tuple], cache) -> list:
        """Phase 1 for ``(path, display)`` items, spread by size; units come back in input order."""
        shares: list[list] = [[] for _ in self.connections]
        loads = [0] * len(self.connections)
        by_size = sorted(enumerate(items), key=lambda entry: -_size(entry[1][0]))
        for position, item in by_size:
            worker = loads.index(min(loads))
            loads[worker] += _size(item[0]) + 1
            shares[worker].append((position, item))
            self.owner[item[1]] = worker
        replies = self._exchange([("phase1", share, cache) for share in shares])
        ordered = sorted((entry for reply in replies for entry in reply), key=lambda entry: entry[0])
        return [unit for _position, unit in ordered]

    def phase2(self, displays: Sequence[str], index, config, rules, cache=None) -> dict:
        shares: list[list] = [[] for _ in self.connections]
        for display in displays:
            shares[self.owner[display]].append(display)
        replies = self._exchange([("phase2", index, config, rules, share, cache) for share in shares])
        return {display: diagnostics for reply in replies for display, diagnostics in reply}

    def close(self) -> None:
        for connection in self.connections:
            try:
                connection.send(("stop",))
            except (OSError, BrokenPipeError):
                pass
        for process in self.processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
        for connection in self.connections:
            connection.close()

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _size(path) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
