"""How code runs: where a stop can reach it, and on which thread.

Facts rules share about execution, rather than each rule guessing:

* **Suspension points** (bgcheck/syntax/suspension.py, on the trees the rules read): a coroutine
  receives a cancellation only where it suspends: an ``await``, an ``async for`` or an ``async with``
  (not counting nested functions). A ``try`` whose body cannot suspend cannot catch one.
* **Thread context** (``ExecutionModel.context``, built by ``build_execution_model``): a function
  runs as a coroutine, in a worker thread only (a ``threading.Thread`` target, a function handed
  to an executor's ``submit()`` or to ``run_in_executor()``, and what only they call), as a signal
  handler, or on the main thread. Python delivers signals, so KeyboardInterrupt and the SystemExit a signal
  handler raises, to the main thread only: code that runs only in worker threads never
  receives them asynchronously.
* **Whose cancellation** (``caught_cancellation_is_anothers``; the tree half in syntax/suspension.py): a ``CancelledError`` caught
  around ``await t`` after ``t.cancel()`` (in the same function, or ``self.t.cancel()`` in any
  method of the class) is the outcome of the task that was cancelled, not a stop to this one;
  in a plain function (not a coroutine), a library's cancellation is never delivered (there is
  no suspension point): one caught there was raised by code it calls (``loop.run_until_complete()``,
  ``future.result()``, a callback), as that work's outcome; the caller is not a task.
* **Cleanup** (``ExecutionModel.runs_only_in_cleanup``): a coroutine whose every project caller
  calls it inside a ``finally:`` block outside every loop of that caller (or is itself such
  cleanup) runs only on the way out of its caller: a second cancellation it swallows holds the
  stop off until the cleanup is done, as one swallowed in the ``finally:`` itself does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from bgcheck import knowledge
from bgcheck.syntax.ir import as_call
from bgcheck.model.shutdown import is_signal_installer

COROUTINE, WORKER_THREAD, SIGNAL_HANDLER, MAIN = "coroutine", "worker thread", "signal handler", "main thread"


# --- thread context --------------------------------------------------------------------------


@dataclass(frozen=True)
class ExecutionModel:
    """Which thread each project function runs on, from the job model and signal handlers; built
    once by build_execution_model, nothing changes it afterwards."""

    coroutines: frozenset[str] = frozenset()  # project functions defined ``async def``
    job_code: frozenset[str] = frozenset()  # functions run as part of any job
    thread_roots: frozenset[str] = frozenset()  # job functions run by a thread or a thread pool
    signal_handlers: frozenset[str] = frozenset()
    worker_only: frozenset[str] = frozenset()  # functions run only in worker threads
    task_only: frozenset[str] = frozenset()  # coroutine functions run only as tasks of their own
    ends_runs: frozenset[str] = frozenset()  # coroutine functions whose return ends every run they are in
    # reached from a job that can receive a stop as an exception (knowledge.NO_STOP_EXCEPTION_FRAMEWORKS)
    other_job_code: frozenset[str] = frozenset()
    cleanup_only: frozenset[str] = frozenset()  # coroutine functions run only as a caller's cleanup
    # project functions that can raise SystemExit (sys.exit(), SystemExit(...), in them or in what they call)
    exit_raising: frozenset[str] = frozenset()
    # some signal handler the project installs can raise SystemExit, or one is not known (a lambda, a partial)
    signals_raise_exit: bool = True

    def runs_only_in_worker_threads(self, qualname: Optional[str]) -> bool:
        return qualname is not None and qualname in self.worker_only

    def job_code_receives_no_stop(self, qualname: Optional[str]) -> bool:
        """Does every job that runs this function run it where a deploy's stop never arrives as an
        exception (a thread or a thread pool's work, a Celery task, an RQ job:
        knowledge.NO_STOP_EXCEPTION_FRAMEWORKS)? Then, run as a job, it never receives
        KeyboardInterrupt or a signal handler's SystemExit; run on the main thread, it is plain
        program code, not a job."""
        return qualname is not None and qualname in self.job_code and qualname not in self.other_job_code

    def runs_only_as_task(self, qualname: Optional[str]) -> bool:
        """Is this coroutine function run only as a task of its own (``create_task(f())``,
        ``ensure_future(f())``, ``asyncio.run(f())``), never awaited by project code? Then, when it
        returns, nothing of the project's goes on from its result: a cancellation it swallows on
        its way out ends the task (as a success), and no caller keeps running through the stop."""
        return qualname is not None and qualname in self.task_only

    def ends_every_run(self, qualname: Optional[str]) -> bool:
        """Does this coroutine function's return end every run it is part of? It runs only as a
        task of its own (runs_only_as_task); or only a framework runs it (no project code calls it,
        and it is decorated or handed on as a value: a route, an event handler); or project code
        awaits it only as the last step of callers that are such functions too (``await
        Handler(ws).start()`` ending a websocket route). A cancellation it swallows on its way out
        then ends that run, as a success, and nothing of the project's goes on from it."""
        return qualname is not None and (qualname in self.task_only or qualname in self.ends_runs)

    def runs_only_in_cleanup(self, qualname: Optional[str]) -> bool:
        """Is this coroutine function run only as cleanup: every project call of it is in a
        ``finally:`` block outside every loop of its caller, or in a function that is such cleanup
        too? Its caller then leaves once it returns, as code in that ``finally:`` does."""
        return qualname is not None and qualname in self.cleanup_only

    def cache_facts(self) -> tuple:
        """Everything this model answers from other modules (for the cache key: bgcheck.model.facts)."""
        return (
            sorted(self.thread_roots), sorted(self.signal_handlers), sorted(self.worker_only), sorted(self.task_only),
            sorted(self.ends_runs), sorted(self.cleanup_only), sorted(self.other_job_code), sorted(self.exit_raising), self.signals_raise_exit,
        )

    def system_exit_can_arrive(self, called: list) -> bool:
        """Can SystemExit reach code that calls these project functions (qualnames)? Python raises it
        only for ``sys.exit()`` and its kin, so only when one of them can, or when a signal handler of
        the project can (how a SIGTERM handler stops a program)."""
        return self.signals_raise_exit or any(name in self.exit_raising for name in called)

    def context(self, qualname: Optional[str]) -> str:
        """coroutine | worker thread | signal handler | main thread (the default when not known)."""
        if qualname in self.coroutines:
            return COROUTINE
        if qualname in self.signal_handlers:
            return SIGNAL_HANDLER
        if self.runs_only_in_worker_threads(qualname):
            return WORKER_THREAD
        return MAIN


def build_execution_model(index) -> ExecutionModel:
    """The thread context of every project function, once the jobs are known (``index.job_roots``)."""
    thread_roots: set[str] = set()
    other_roots: set[str] = set()  # run by a job that is not a thread too (a Celery task also started as a thread)
    stopped_roots: set[str] = set()  # run by a job that can receive a stop as an exception
    signal_handlers = _signal_handlers(index)
    exit_raising = _exit_raising(index)
    signals_raise_exit = _signals_raise_exit(index, exit_raising)
    # The jobs a process runs on its own threads get a stop only as the interrupts a signal raises
    # on the main thread: when the project's SIGINT handler raises nothing and no handler raises
    # SystemExit, nothing is raised into them (a Tornado server whose handlers stop the IOLoop).
    no_stop = knowledge.NO_STOP_EXCEPTION_FRAMEWORKS
    if not signals_raise_exit and _sigint_raises_nothing(index, exit_raising):
        no_stop = no_stop | knowledge.SIGNAL_STOPPED_FRAMEWORKS
    for qualname, jobs in index.job_roots.items():
        func = index.function(qualname)
        if func is None:
            continue
        for job in jobs:
            # run_in_executor(None, f) runs a plain function in a thread; a task runs a coroutine, also
            # a generator-based one (``@asyncio.coroutine`` with ``yield from``), on the event loop
            if job.kind == "thread" or job.framework == "concurrent.futures" or (
                job.framework == "asyncio" and not (func.is_async or func.is_generator) and job.kind == "in-process task"
            ):
                thread_roots.add(qualname)
                continue
            other_roots.add(qualname)
            if func.is_async or job.framework not in no_stop:
                stopped_roots.add(qualname)
    # Without threads nothing runs only in worker threads.
    worker_only = _worker_thread_only(index, thread_roots, other_roots, signal_handlers) if thread_roots else set()
    other_job_code = set(index.reachable(sorted(stopped_roots)))
    task_only = _task_only(index)
    return ExecutionModel(
        coroutines=frozenset(q for q, (_summary, func) in index.functions.items() if func.is_async),
        job_code=frozenset(index.job_code),
        thread_roots=frozenset(thread_roots),
        signal_handlers=frozenset(signal_handlers),
        worker_only=frozenset(worker_only),
        task_only=frozenset(task_only),
        ends_runs=frozenset(_ends_every_run(index, task_only) - task_only),
        other_job_code=frozenset(other_job_code),
        cleanup_only=frozenset(_cleanup_only(index)),
        exit_raising=frozenset(exit_raising),
        signals_raise_exit=signals_raise_exit,
    )


def _worker_thread_only(index, thread_roots: set[str], other_roots: set[str], signal_handlers: set[str]) -> set[str]:
    """Functions that run only in worker threads: thread roots nothing else calls, and functions
    whose every caller runs only in worker threads. A function also called at import time, from
    code of another kind, or registered as a signal handler is not."""
    callers: dict[str, set[str]] = {}
    for name in index.functions:
        for callee in index.callees(name):
            callers.setdefault(callee, set()).add(name)
    module_called: set[str] = set()
    for summary in index.modules.values():
        for target in summary.module_calls:
            resolved = index.resolve_function(target)
            if resolved:
                module_called.add(resolved)
    candidates = set(index.reachable(sorted(thread_roots)))
    only = set(candidates) - module_called - signal_handlers - other_roots
    changed = True
    while changed:
        changed = False
        for name in sorted(only):
            if name in thread_roots:
                ok = not (callers.get(name, set()) - only)
            else:
                ok = bool(callers.get(name)) and callers[name] <= only
            if not ok:
                only.discard(name)
                changed = True
    return only


def _installs_a_handler(index, target: str) -> bool:
    """Is the call target ``signal.signal`` or a loop's ``add_signal_handler``?"""
    return is_signal_installer(index.canonical(target) or target)


def _handler_installs(index, summary) -> list[tuple]:
    """The arguments (IRs) of each recorded call in this module that installs a signal handler."""
    return [
        call[2]
        for call, _scope in summary.recorded_calls
        if call and call[0] == "call" and call[1] and _installs_a_handler(index, call[1])
    ]


def _signal_handlers(index) -> set[str]:
    """Project functions installed with ``signal.signal(sig, f)`` or ``loop.add_signal_handler(sig, f)``."""
    found: set[str] = set()
    for summary in index.modules.values():
        for args in _handler_installs(index, summary):
            if len(args) >= 2 and args[1][0] == "ref":
                resolved = index.resolve_function(args[1][1])
                if resolved:
                    found.add(resolved)
    return found


def _exit_raising(index) -> set[str]:
    """Project functions that can raise SystemExit: those that call ``sys.exit()`` (or ``exit()``,
    ``quit()``, ``SystemExit(...)``: knowledge.SYSTEM_EXIT_RAISERS), and every project function that
    calls one of them."""
    callers: dict[str, set[str]] = {}
    found: set[str] = set()
    for name, (_summary, func) in index.functions.items():
        if any((index.canonical(target) or target) in knowledge.SYSTEM_EXIT_RAISERS for target in func.calls):
            found.add(name)
        for callee in index.callees(name):
            callers.setdefault(callee, set()).add(name)
    todo = list(found)
    while todo:
        for caller in callers.get(todo.pop(), ()):
            if caller not in found:
                found.add(caller)
                todo.append(caller)
    return found


def _signals_raise_exit(index, exit_raising: set[str]) -> bool:
    """Can a signal handler installed by the project (``signal.signal``, ``loop.add_signal_handler``)
    raise SystemExit? A handler that is not a plain reference (a lambda, a ``partial``), or a
    reference to nothing known, may; a library's own handler (``signal.SIG_IGN``,
    ``signal.default_int_handler``, which raises KeyboardInterrupt) does not."""
    for summary in index.modules.values():
        installs = _handler_installs(index, summary)
        for args in installs:
            if len(args) < 2:
                return True
            handler = args[1]
            if handler[0] != "ref":
                return True
            resolved = index.resolve_function(handler[1])
            if resolved is None:
                if not (index.canonical(handler[1]) or handler[1]).startswith("signal."):
                    return True
            elif resolved in exit_raising:
                return True
        # an installer under a renamed import (``from signal import signal as install``) is not recorded
        calls = sum(1 for target in summary.module_calls if _installs_a_handler(index, target))
        calls += sum(1 for func in summary.functions.values() for target in func.calls if _installs_a_handler(index, target))
        if calls > len(installs):
            return True
    return False


def _sigint_raises_nothing(index, exit_raising: set[str]) -> bool:
    """Does the project replace SIGINT's handler (``signal.signal(signal.SIGINT, h)``), so that Ctrl-C
    raises no KeyboardInterrupt? Each install for SIGINT must name ``signal.SIG_IGN``, ``signal.SIG_DFL``
    or a project function that cannot raise SystemExit (one known by reference; a lambda, a
    ``partial`` or an unknown name may raise anything, and ``signal.default_int_handler`` raises
    KeyboardInterrupt). False when nothing replaces it."""
    replaced = False
    for summary in index.modules.values():
        for args in _handler_installs(index, summary):
            if not args or args[0][0] != "ref" or (index.canonical(args[0][1]) or args[0][1]) != "signal.SIGINT":
                continue
            if len(args) < 2 or args[1][0] != "ref":
                return False
            handler = index.canonical(args[1][1]) or args[1][1]
            resolved = index.resolve_function(args[1][1])
            if handler in knowledge.QUIET_SIGNAL_HANDLERS or (resolved is not None and resolved not in exit_raising):
                replaced = True
                continue
            return False
    return replaced


def _started_coroutine(call) -> Optional[tuple]:
    """The coroutine a task-starting call runs: its first argument, or ``coro=`` (``create_task(coro=f())``)."""
    parts = as_call(call)
    if parts.args:
        return parts.first_arg
    for item in parts.kwargs:
        if len(item) > 1 and item[0] == "coro":
            return item[1]
    return None


def _starts_as_root_or_task(target: str) -> bool:
    """Does a call of ``target`` run its coroutine argument as an event loop's root or a task of its own?"""
    return (
        target in knowledge.EVENT_LOOP_ROOTS
        or target.rsplit(".", 1)[-1] in knowledge.EVENT_LOOP_ROOT_METHODS
        or bool(knowledge.LOOP_TASK_STARTS.fullmatch(target))
        or any(start.func == ("coro", 0) and start.matches(target, None) for start in knowledge.WORK_STARTS)
    )


def _coroutine_argument(target: str, key: str) -> bool:
    """Is the argument ``key`` ("" for the first positional one) of a task start the coroutine it runs?"""
    return key in ("", "coro", "main")


def _task_helpers(index) -> dict[str, set[str]]:
    """Plain project functions that start the coroutine they are given as a task of their own
    (``def start(coro): return asyncio.get_running_loop().create_task(coro)``), also through one
    another: function -> the argument keys that take the coroutine ("" for the first positional
    argument, or a parameter's name as a keyword)."""
    helpers: dict[str, set[str]] = {}
    wrappers = _awaiting_wrappers(index)
    for _round in range(4):  # a helper of a helper of a helper: enough for real projects
        changed = False
        for qualname, (_summary, func) in index.functions.items():
            if func.is_async:
                continue  # it could await the task it starts, and go on from its result
            for param, target, key in func.param_handoffs:
                canonical = index.canonical(target) or target
                callee = index.resolve_function(canonical)
                starts = (_starts_as_root_or_task(canonical) and _coroutine_argument(canonical, key)) or (
                    callee in helpers and key in helpers[callee]
                ) or (key in wrappers.get(callee, ()) and _starts_wrapper(index, func, callee))
                if starts:
                    keys = helpers.setdefault(qualname, set())
                    before = len(keys)
                    keys.update(func.argument_keys(param))
                    changed = changed or len(keys) != before
        if not changed:
            break
    return helpers


def _awaiting_wrappers(index) -> dict[str, set[str]]:
    """Coroutine functions that only ``return await`` a coroutine they are given
    (``FunctionSummary.awaits_through``): function -> the argument keys that take it. Started as a
    task, such a wrapper is the given coroutine's run (``ensure_future(safe_wrapper(coro))``)."""
    found: dict[str, set[str]] = {}
    for qualname, (_summary, func) in index.functions.items():
        for param in func.awaits_through:
            found.setdefault(qualname, set()).update(func.argument_keys(param))
    return found


def _starts_wrapper(index, func, wrapper: str) -> bool:
    """Does ``func`` start a call of ``wrapper`` as a task of its own (``call_handoffs``)?"""
    for target, key, inner in func.call_handoffs:
        canonical = index.canonical(target) or target
        if _starts_as_root_or_task(canonical) and _coroutine_argument(canonical, key) and index.resolve_function(inner) == wrapper:
            return True
    return False


def _task_only(index) -> set[str]:
    """Coroutine functions started as tasks, whose every project caller is a scope that
    starts them (the call inside ``create_task(...)`` is a call of the function too), directly or
    through a project helper that starts the coroutine it is given (``_task_helpers``)."""
    starters: dict[str, set[str]] = {}  # function -> scopes that start it as a task
    wrappers = _awaiting_wrappers(index)
    for summary in index.modules.values():
        for call, scope in summary.recorded_calls:
            if not call or call[0] != "call" or not call[1]:
                continue
            target = index.canonical(call[1]) or call[1]
            if not _starts_as_root_or_task(target):
                continue
            started = _started_coroutine(call)
            if started is None or started[0] != "call" or not started[1]:
                continue
            function = index.resolve_function(started[1])
            if function in wrappers and "" in wrappers[function]:
                # ``ensure_future(safe_wrapper(self._ping()))``: the task is the wrapped coroutine's run
                inner = as_call(started).first_arg if as_call(started).args else None
                if inner is not None and inner[0] == "call" and inner[1]:
                    function = index.resolve_function(inner[1])
            func = index.function(function) if function else None
            if func is not None and func.is_async:
                starters.setdefault(function, set()).add(scope)
    helpers = _task_helpers(index)
    for qualname, (_summary, func) in index.functions.items():
        for target, key, inner in func.call_handoffs:
            helper = index.resolve_function(target)
            if helper is None or key not in helpers.get(helper, ()):
                continue
            function = index.resolve_function(inner)
            started = index.function(function) if function else None
            if started is not None and started.is_async:
                starters.setdefault(function, set()).add(qualname)
    callers: dict[str, set[str]] = {}
    for name in index.functions:
        for callee in index.callees(name):
            if callee in starters:
                callers.setdefault(callee, set()).add(name)
    module_called: set[str] = set()
    for summary in index.modules.values():
        for target in summary.module_calls:
            resolved = index.resolve_function(target)
            if resolved in starters:
                module_called.add(resolved)
    return {
        function
        for function, scopes in starters.items()
        if callers.get(function, set()) <= scopes
        and (function not in module_called or any(scope in index.modules for scope in scopes))
    }


def _ends_every_run(index, task_only: set[str]) -> set[str]:
    """Coroutine functions whose return ends every run they are part of (ExecutionModel.ends_every_run):
    the task-only ones, the ones only a framework runs, and, grown from those, the ones awaited only
    as the last step (``FunctionSummary.tail_calls``) of callers that end every run. Never one called
    at import time or handed to a project function (``retry(fetch)`` may call it in a loop)."""
    callers: dict[str, set[str]] = {}
    tails: dict[str, set[str]] = {}
    excluded: set[str] = set()
    for name, (_summary, func) in index.functions.items():
        for callee in index.callees(name):
            callers.setdefault(callee, set()).add(name)
        tails[name] = {index.resolve_function(func.calls[i]) for i in func.tail_calls if i < len(func.calls)} - {None}
        for target, _key, inner in func.ref_handoffs:
            if index.resolve_function(target) is not None:
                excluded.add(index.resolve_function(inner))
    for summary in index.modules.values():
        excluded.update(index.resolve_function(target) for target in summary.module_calls)
    handed = {index.resolve_function(ref) for ref in index.passed_refs()}
    coroutines = {
        name for name, (_summary, func) in index.functions.items()
        if func.is_async and not func.is_generator and name not in excluded
    }
    found = set(task_only)
    for name in coroutines:
        func = index.function(name)
        if not callers.get(name) and (func.decorators or name in handed):
            found.add(name)
    changed = True
    while changed:
        changed = False
        for name in sorted(coroutines - found):
            if callers.get(name) and all(caller in found and name in tails[caller] for caller in callers[name]):
                found.add(name)
                changed = True
    return found


def _cleanup_only(index) -> set[str]:
    """Coroutine functions run only as cleanup (``ExecutionModel.runs_only_in_cleanup``): called by
    project code, never at import time, never a job nor started as a task nor handed on as a value
    (a callback runs who knows where), and every caller calls them only in its cleanup
    (``FunctionSummary.cleanup_calls``) or is such a function itself (grown from those callers, so a
    cycle of calls with no ``finally:`` under it is not cleanup)."""
    in_cleanup: dict[str, set[str]] = {}  # caller -> callees it calls only in cleanup
    callers: dict[str, set[str]] = {}
    for name, (_summary, func) in index.functions.items():
        cleanup = {func.calls[i] for i in func.cleanup_calls if i < len(func.calls)}
        resolved_cleanup = {index.resolve_function(t) for t in cleanup} - {None}
        plain = {index.resolve_function(t) for t in func.calls if t not in cleanup} - {None}
        in_cleanup[name] = resolved_cleanup - plain
        for callee in index.callees(name):
            callers.setdefault(callee, set()).add(name)
    excluded = set(index.job_roots) | _not_only_called(index)
    candidates = {
        name for name, (_summary, func) in index.functions.items()
        if func.is_async and callers.get(name) and name not in excluded
    }
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name in sorted(candidates - found):
            if all(name in in_cleanup[caller] or caller in found for caller in callers[name]):
                found.add(name)
                changed = True
    return found


def _not_only_called(index) -> set[str]:
    """Project functions that run other than by a call of project code: called at import time,
    handed on as a value (``passed_refs``), or started as a task or a loop's root."""
    found: set[str] = set()
    for summary in index.modules.values():
        for target in (*summary.module_calls, *summary.passed_refs):
            resolved = index.resolve_function(target)
            if resolved:
                found.add(resolved)
        for call, _scope in summary.recorded_calls:
            parts = as_call(call)
            if parts is None or not parts.target or not _starts_as_root_or_task(index.canonical(parts.target) or parts.target):
                continue
            started = as_call(_started_coroutine(call))
            resolved = index.resolve_function(started.target) if started is not None and started.target else None
            if resolved:
                found.add(resolved)
    return found
