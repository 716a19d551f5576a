"""BG4xx: stop cleanly, and within the budget.

A deploy sends SIGTERM, waits the grace period, then SIGKILLs. These rules
check that the program hears SIGTERM, that what it waits for on the way out
has a deadline, that the deadlines fit in the grace period, and that nothing
in flight is simply abandoned.
"""

from __future__ import annotations

from typing import Optional

from bgcheck.syntax.lazy import cst

from bgcheck import knowledge
from bgcheck.diagnostics import Location, Severity, clip, short_name
from bgcheck.syntax.ir import as_call
from bgcheck.syntax.cst_ir import dotted_name, is_none
from bgcheck.rules.base import Rule, register
from bgcheck.rules.calls import receiver_kind, argument, holder_of, calls_around, is_waited_for, last_name, sets_daemon
from bgcheck.model.project import breadth_first
from bgcheck.model.shutdown import (
    background_starts,
    entry_roots,
    entry_scopes,
    hands_over_to_framework,
    installs_sigterm_handler,
    is_signal_installer,
    timed_wait,
    timed_waits,
)
from bgcheck.rules.notes import call_note, chain_notes, notes_from
from bgcheck.rules.relevance import calls_any
from bgcheck.syntax.walk import walk
from bgcheck.rules.checker import FileContext


@register
class ExecutorNeverShutDown(Rule):
    code = "BG401"
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    name = "executor-never-shut-down"
    severity = Severity.WARNING
    reads = ("call_targets", "passed_refs")
    summary = (
        "A `multiprocessing` pool kept in a global or attribute that nothing in the project closes: at exit it is "
        "terminated, its running tasks killed and the queued ones dropped."
    )

    def is_relevant(self, unit) -> bool:
        # visit_Call: a pool's canonical name
        return calls_any(unit, lambda canonical, _method: canonical in knowledge.POOLS_TERMINATED_AT_EXIT)

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        # Only pools whose exit loses their work: a concurrent.futures executor nobody shuts down is joined
        # at exit after its queued items ran, as shutdown(wait=True) would (see knowledge.POOLS_TERMINATED_AT_EXIT).
        if ctx.resolve_call(node) not in knowledge.POOLS_TERMINATED_AT_EXIT:
            return
        holder = holder_of(node, ctx)
        if holder is None:
            return
        if _stopped_anywhere(ctx.index, holder, ("close", "terminate")):
            return
        if not _used_anywhere(ctx.index, holder):
            return  # nothing is ever submitted to it: no work in flight to lose
        ctx.report(
            self,
            node,
            f"This `multiprocessing` pool is kept in `{short_name(holder, 30)}` and nothing in the project closes it",
            "At exit, multiprocessing terminates a pool nobody closed: the tasks running in it are killed mid-work and "
            "the queued ones are dropped, with no error. On the shutdown path, close() it and wait for its results "
            "with a deadline, then join() it; or terminate() it where dropping the work is the choice.",
        )


def _used_anywhere(index, holder: str) -> bool:
    """Is a method called on the holder (``POOL.apply_async``, ``self._pool.map``), or the holder passed to a
    recorded call or on as a value (``run_on(POOL, f)``), anywhere in the project? By its last name, as for
    stop calls: an unknown spelling counts as a use. A library's own module of that name is not the holder:
    ``multiprocessing.pool.ThreadPool`` is no use of a ``self.pool``."""
    name = holder.rsplit(".", 1)[-1]
    targets = index.all_call_targets() | set(index.passed_refs())
    return any(_names(target, name, index) for target in targets)


def _names(target: str, name: str, index) -> bool:
    """Does a call target or passed path (as resolved in its module) reach something called ``name``
    through the project's own names (its top-level module or package, an instance) or an unknown receiver?"""
    parts = target.split(".")
    if name not in parts[1:]:
        return False
    root = parts[0].lstrip("?")
    return root == "" or root.endswith("()") or root in index.modules


def _stopped_anywhere(index, holder: str, methods: tuple) -> bool:
    """Is a stop method called on (or passed from) the holder anywhere? Matched by the holder's last name,
    which keeps re-exports, subclasses and other spellings of the same object from crying wolf."""
    name = holder.rsplit(".", 1)[-1]
    suffixes = tuple(f".{name}.{method}" for method in methods)
    for target in index.all_call_targets():
        if target.endswith(suffixes):
            return True
    return False


@register
class ShutdownWithoutWait(Rule):
    code = "BG402"
    name = "shutdown-without-wait"
    severity = Severity.ERROR
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    reads = ("shutdown",)
    summary = "`shutdown(wait=False)`, `Pool.terminate()` or `task.cancel()` that abandons in-flight work."

    def is_relevant(self, unit) -> bool:
        # visit_Call: a shutdown() or terminate() whose canonical name is an executor's, a scheduler's or
        # a pool's, or any cancel() method in shutdown code
        shutdown_code = unit.index.shutdown.shutdown_code
        return calls_any(unit, _stops_work) or calls_any(unit, lambda _canonical, method: method == "cancel", shutdown_code)

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute):
            return
        method = func.attr.value
        if method == "shutdown":
            self._shutdown(node, ctx)
        elif method == "terminate":
            self._terminate(node, ctx)
        elif method == "cancel" and ctx.function_qualname in ctx.index.shutdown.shutdown_code:
            self._cancel(node, ctx)

    def _shutdown(self, node: cst.Call, ctx: FileContext) -> None:
        name = ctx.resolve_call(node) or ""
        is_executor = bool(knowledge.EXECUTOR_SHUTDOWN.fullmatch(name))
        is_scheduler = bool(knowledge.SCHEDULER_SHUTDOWN.fullmatch(name))
        if not (is_executor or is_scheduler):
            return
        wait = argument(node, "wait", 0)
        if wait is None or ctx.fold(wait) is not False:
            return
        if is_executor:
            cancel = argument(node, "cancel_futures", 1)
            if cancel is not None and ctx.fold(cancel) is True:
                return
        if _bounded_wait_follows(node, ctx):
            return
        if is_executor:
            message = "`shutdown(wait=False)` returns at once, and nobody waits for the queued work"
            what = "Queued work is left to run, or to die with the process"
            fix = "Pass `cancel_futures=True` so queued work is cancelled explicitly, then wait for the running work with a deadline"
        else:
            message = "`scheduler.shutdown(wait=False)` abandons the jobs that are running"
            what, fix = "Nobody waits for the running jobs", "Wait for the running jobs with a deadline"
        ctx.report(self, node, message, f"{what}: in-flight work is abandoned and lost at exit. {fix}.")

    def _terminate(self, node: cst.Call, ctx: FileContext) -> None:
        name = ctx.resolve_call(node) or ""
        if not knowledge.POOL_TERMINATE.fullmatch(name):
            return
        receiver = dotted_name(node.func.value)
        before, _after = calls_around(ctx.function_node or ctx.module, node)
        called = {
            last_name(call)
            for call in before
            if isinstance(call.func, cst.Attribute) and dotted_name(call.func.value) == receiver
            and (last_name(call) == "join" or not call.args)
        }
        if receiver and {"close", "join"} <= called:
            return
        ctx.report(
            self,
            node,
            "`Pool.terminate()` without `close()` and `join()` first kills the workers mid-task",
            "Outstanding work is dropped. Call `close()`, then `join()` with a deadline (poll `ready()` on the "
            "results), and terminate only what is left.",
        )

    def _cancel(self, node: cst.Call, ctx: FileContext) -> None:
        receiver = dotted_name(node.func.value)
        if receiver is None:
            return
        if knowledge.CANCEL_NOT_A_TASK.fullmatch(ctx.resolve(node.func.value) or ""):
            return  # a timer or a scheduled callback that has not run: nothing in flight
        if ctx.index.resolve_function(ctx.resolve_call(node)):
            return  # a project class's own cancel(): not a task's
        kind = receiver_kind(node, ctx)
        if kind is not None and kind not in ("task", "future"):
            return  # known to be something else (an executor, a thread, a queue...)
        if kind is None and isinstance(node.func.value, cst.Name) and as_call(ctx.to_ir(node.func.value)) is not None:
            return  # a local holding what some other call returned (``st = self.futures.pop(key)``): not known to be a task
        names = {receiver}
        loop = ctx.enclosing(cst.For)
        if loop is not None and dotted_name(loop.target) == receiver:
            collection = dotted_name(loop.iter)
            if collection:
                names.add(collection)
        if any(is_waited_for(ctx.function_node, name) for name in names):
            return
        ctx.report(
            self,
            node,
            f"`{clip(receiver, 40)}.cancel()` in a shutdown path, and the task is not awaited afterwards",
            "The cancellation is only requested: the task's cleanup never runs before exit, and whatever it was doing "
            "is abandoned. Await it (`await asyncio.wait(tasks, timeout=...)`) after cancelling.",
        )


def _stops_work(canonical, method) -> bool:
    if not canonical:
        return False
    if method == "shutdown":
        return bool(knowledge.EXECUTOR_SHUTDOWN.fullmatch(canonical) or knowledge.SCHEDULER_SHUTDOWN.fullmatch(canonical))
    return method == "terminate" and bool(knowledge.POOL_TERMINATE.fullmatch(canonical))


def _bounded_wait_follows(node: cst.Call, ctx: FileContext) -> bool:
    """After the call, in the same function, something waits for the work: ``wait(...)``,
    ``t.join(5)``, ``f.result(5)``, or a wait with ``timeout=``. A ``timeout=`` given to anything
    else (an HTTP call) waits for nothing that was started."""
    _before, after = calls_around(ctx.function_node or ctx.module, node)
    for call in after:
        name = last_name(call)
        if name == "wait":
            return True
        positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
        if name in knowledge.WAITS_FOR_RECEIVER and positional and isinstance(positional[0].value, (cst.Integer, cst.Float)):
            return True
        if name in knowledge.WAITS_FOR_RECEIVER | knowledge.WAITS_FOR_ARGUMENTS and argument(call, "timeout") is not None:
            return True
    return False


_DURABLE = knowledge.DURABLE_WRITE_CALLS


@register
class DaemonThreadDoesDurableWork(Rule):
    code = "BG403"
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    name = "daemon-thread-does-durable-work"
    severity = Severity.WARNING
    reads = ("call_graph", "call_sites")
    summary = "A daemon thread whose target commits, publishes, enqueues or moves money: it is killed mid-write at exit."

    def is_relevant(self, unit) -> bool:
        # visit_Call: a threading.Thread(...) made a daemon, which the source spells (``daemon=``, ``.daemon =``
        # or ``setDaemon``: see _daemon)
        if "daemon" not in unit.text and "setDaemon" not in unit.text:
            return False
        return calls_any(unit, lambda canonical, _method: canonical == "threading.Thread")

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        if ctx.resolve_call(node) != "threading.Thread":
            return
        target = argument(node, "target", 1)
        if target is None or not _daemon(node, ctx):
            return
        function = ctx.index.resolve_function(ctx.resolve(target))
        if function is None:
            return
        found = _durable_chain(ctx.index, function)
        if found is None:
            return
        chain, (write, scope, target) = found
        shown = " -> ".join(f"{q.rsplit('.', 1)[-1]}()" for q in chain)
        ctx.report(
            self,
            node,
            f"This daemon thread runs `{clip(shown, 36)}`, which writes durably ({clip(write, 32)})",
            f"The thread runs `{shown}`, which writes durably ({write}). Daemon threads "
            "are killed abruptly at exit, with no `finally`, so the write can be cut in half or never happen. Use a "
            "non-daemon thread with a stop event that is set and joined (with a timeout) on shutdown, or a durable queue.",
            related=_write_notes(ctx.index, chain, write, scope, target),
        )


def _daemon(node: cst.Call, ctx: FileContext) -> bool:
    value = argument(node, "daemon", None)
    if value is not None:
        return ctx.fold(value) is True
    parent = ctx.parent()
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
        variable = dotted_name(parent.targets[0].target)
        scope = ctx.function_node or ctx.module
        if variable and sets_daemon(scope, variable, only_true=True):
            return True
    return False


# How far from a daemon thread's target BG403 looks for a durable write: the claim is about what
# the thread does, and a write six calls away (a settings save on a singleton's first use) is
# not what a reader of the target sees it do.
_DAEMON_WRITE_DEPTH = 2


def _durable_chain(index, function: str) -> Optional[tuple[list[str], tuple]]:
    """The shortest chain of project functions from ``function`` (at most
    ``_DAEMON_WRITE_DEPTH`` calls deep) to one that writes durably, and that write
    (see ``_durable_write_in``)."""
    parents: dict[str, Optional[str]] = {}
    for name, parent in breadth_first([function], lambda name: sorted(index.callees(name)), max_depth=_DAEMON_WRITE_DEPTH):
        parents[name] = parent
        write = _durable_write_in(index, [name])
        if write is not None:
            chain = [name]
            while parents[chain[-1]] is not None:
                chain.append(parents[chain[-1]])
            return list(reversed(chain)), write
    return None


def _write_notes(index, chain: list[str], write: str, scope: str, target: str) -> tuple:
    """Notes at each call of ``chain`` and at the durable write its last function makes."""
    notes = chain_notes(index, chain)
    at_write = call_note(index, scope, lambda t: t == target, f"writes durably: {write}")
    return notes + ((at_write,) if at_write else ())


def _started_work(index, modules: set[str]) -> dict[str, str]:
    """Functions run by the threads, tasks and schedulers registered in these modules: qualname ->
    the job function it is reached from."""
    files = {index.modules[m].path for m in modules if m in index.modules}
    roots = [job.function for job in index.jobs if job.function and job.registered_in in files]
    return index.reachable(roots)


def _entry_write_notes(index, entry, started: dict, write: str, scope: str, target: str) -> tuple:
    """Notes from an entry point to its durable write: the calls from the entry (or from the
    background job that reaches the write, starting at its ``def``), then the write."""
    chain = index.call_path(entry_roots(index, entry), scope)
    if chain and not entry.function:
        chain = [entry.module] + chain  # the module's top level calls the first one
    notes = chain_notes(index, chain)
    if not chain and scope in started:
        notes = chain_notes(index, index.call_path([started[scope]], scope), start_at_def=True)
    at_write = call_note(index, scope, lambda t: t == target, f"writes durably: {write}")
    return notes + ((at_write,) if at_write else ())


def _other_signal_notes(index, scopes: set) -> tuple:
    """Where the program installs handlers for other signals only (``SIGINT``, ``SIGQUIT``)."""
    notes = []
    for scope in sorted(scopes & set(index.shutdown.other_signals)):
        names = ", ".join(sorted(index.shutdown.other_signals[scope]))
        note = call_note(index, scope, lambda t: is_signal_installer(index.canonical(t) or t), f"installs a handler for {names}, none for SIGTERM")
        if note:
            notes.append(note)
    return tuple(notes)


def _durable_write_in(index, scopes) -> Optional[tuple[str, str, str]]:
    """The first durable write made by these functions (or a module's top level): (the write
    described for a message, the scope that makes it, its call target), or None."""
    for scope in scopes:
        summary = index.function(scope)
        calls = summary.calls if summary else (index.modules[scope].module_calls if scope in index.modules else ())
        for call in calls:
            canonical = index.canonical(call) or call
            if _DURABLE.fullmatch(canonical):
                receiver = canonical.replace("()", "").rsplit(".", 2)[-2:][0].lstrip("?")
                method = canonical.rsplit(".", 1)[-1]
                return (f"`{receiver}.{method}()`" if receiver else f"`{method}()`"), scope, call
    return None


@register
class NoSigtermHandler(Rule):
    code = "BG404"
    name = "no-sigterm-handler"
    severity = Severity.ERROR
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    reads = ("call_graph", "call_sites", "jobs", "shutdown")
    summary = "An entry point starts background work and no SIGTERM handler is installed: a deploy kills it mid-work."

    def is_relevant(self, unit) -> bool:
        return any(e.path == unit.display for e in unit.index.shutdown.entry_points)

    def _check(self, ctx: FileContext, entry, node) -> None:
        index = ctx.index
        scopes, modules = entry_scopes(index, entry)
        starts = background_starts(index, scopes)
        if not starts or hands_over_to_framework(index, scopes):
            return
        if installs_sigterm_handler(index.shutdown, scopes, modules):
            return
        # A monitor, a stats screen or a dev watcher loses nothing when killed: only a program
        # that writes durably (commits, publishes, enqueues, moves money) has work in flight.
        started = _started_work(index, modules)
        found = _durable_write_in(index, sorted(scopes | set(started)))
        if found is None:
            return
        write, scope, target = found
        what = {"main block": "This `__main__` block", "console script": f"Console script `{clip(entry.script, 30)}`", "asyncio.run": "This `asyncio.run()` entry point", "management command": "This management command"}[entry.kind]
        ctx.report(
            self,
            node,
            f"{what} starts background work that writes durably, with no SIGTERM handler",
            f"It starts {', '.join(starts[:3])}, which writes durably ({write}), and no SIGTERM handler is installed: Python's "
            "default is to die at once on SIGTERM (no `finally`, no atexit), so every deploy loses the work in flight. "
            "Install one (`signal.signal(signal.SIGTERM, ...)` or `loop.add_signal_handler`) that stops intake, waits "
            "with a deadline, then cancels or persists what is left.",
            related=_entry_write_notes(index, entry, started, write, scope, target) + _other_signal_notes(index, scopes | modules),
        )

    def visit_If(self, node: cst.If, ctx: FileContext) -> None:
        if ctx.function_node is not None or ctx.class_qualname is not None or not _is_main_test(node.test):
            return
        for entry in ctx.index.shutdown.entry_points:
            if entry.kind == "main block" and entry.module == ctx.summary.module:
                self._check(ctx, entry, node.test)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: FileContext) -> None:
        for entry in ctx.index.shutdown.entry_points:
            if entry.function == ctx.function_qualname and entry.kind in ("console script", "management command"):
                self._check(ctx, entry, node.name)

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        if ctx.function_node is not None or ctx.resolve_call(node) not in knowledge.ASYNCIO_RUN:
            return
        for entry in ctx.index.shutdown.entry_points:
            if entry.kind == "asyncio.run" and entry.module == ctx.summary.module:
                self._check(ctx, entry, node)
                return


def _is_main_test(test: cst.BaseExpression) -> bool:
    """``__name__ == "__main__"`` (either way round): what the summary's has_main_block says, on the CST."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    comparison = test.comparisons[0]
    if not isinstance(comparison.operator, cst.Equal):
        return False
    sides = [test.left, comparison.comparator]
    names = [s for s in sides if isinstance(s, cst.Name) and s.value == "__name__"]
    strings = [s for s in sides if isinstance(s, cst.SimpleString) and s.evaluated_value == "__main__"]
    return bool(names and strings)


def _shutdown_root(ctx: FileContext):
    qualname = ctx.function_qualname
    model = ctx.index.shutdown
    root_name = model.shutdown_code.get(qualname or "")
    return model.roots.get(root_name) if root_name else None


@register
class UnboundedWaitInShutdown(Rule):
    code = "BG405"
    name = "unbounded-wait-in-shutdown"
    severity = Severity.WARNING
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    reads = ("call_graph", "call_sites", "shutdown", "threads")
    summary = "A wait with no deadline in a SIGTERM handler, atexit hook or shutdown hook."

    def __init__(self, config) -> None:
        super().__init__(config)
        self._after_yield: set = set()

    def is_relevant(self, unit) -> bool:
        shutdown_code = unit.index.shutdown.shutdown_code
        return any(name in shutdown_code for name in unit.summary.functions)

    def visit_Yield(self, node, ctx: FileContext) -> None:
        if ctx.function_node is not None:
            self._after_yield.add(id(ctx.function_node))

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        root = _shutdown_root(ctx)
        if root is None:
            return
        if root.after_yield_only and root.function == ctx.function_qualname and id(ctx.function_node) not in self._after_yield:
            return  # lifespan code before ``yield`` runs at start-up
        what = _unbounded_wait(node, ctx)
        if what is None:
            return
        where = f"{clip(root.how, 32)} `{short_name(root.function, 24)}()`"
        ctx.report(
            self,
            node,
            f"{clip(what, 36)} in the {where} waits with no deadline",
            "If the work does not finish, shutdown outlives the grace "
            "period and SIGKILL loses what is left anyway. Wait with a timeout, then cancel or persist what remains.",
            related=notes_from(ctx.index, root.function, ctx.function_qualname),
        )


def _unbounded_wait(node: cst.Call, ctx: FileContext) -> Optional[str]:
    func = node.func
    if not isinstance(func, cst.Attribute) and not isinstance(func, cst.Name):
        return None
    name = ctx.resolve_call(node) or ""
    method = func.attr.value if isinstance(func, cst.Attribute) else func.value
    # An atexit hook runs after the interpreter has joined every non-daemon thread and every
    # concurrent.futures executor's workers: those waits are over before it starts.
    atexit_only = (ctx.function_qualname or "") in ctx.index.shutdown.atexit_only
    if knowledge.EXECUTOR_SHUTDOWN.fullmatch(name) or knowledge.SCHEDULER_SHUTDOWN.fullmatch(name):
        wait = argument(node, "wait", 0)
        if (wait is not None and ctx.fold(wait) is False) or (atexit_only and knowledge.EXECUTOR_SHUTDOWN.fullmatch(name)):
            return None
        return "`shutdown()` (wait=True)"
    if method == "join" and isinstance(func, cst.Attribute) and not isinstance(func.value, cst.BaseString):
        kind = receiver_kind(node, ctx)
        if any(arg.star for arg in node.args) or kind not in knowledge.JOINABLE_KINDS:
            return None  # only a thread, process, pool or queue the model knows: not ``t.join()`` on a name alone
        if atexit_only and kind == "thread" and ctx.index.thread_is_daemon(ctx.to_ir(func.value)) is not True:
            return None  # a non-daemon thread has ended before atexit hooks run (unknown: cannot tell)
        timeout = argument(node, "timeout", 0)
        if timeout is None or (len(node.args) == 1 and not node.args[0].star and is_none(timeout)):
            return "`join()`"
        return None
    if name in knowledge.GATHER:
        if _under_deadline(ctx):
            return None
        return "`asyncio.gather()`"
    if name in knowledge.EVENT_WAITS and not node.args:
        if argument(node, "timeout", None) is None and not _under_deadline(ctx):
            return f"`{method}()`"
    return None


def _under_deadline(ctx: FileContext) -> bool:
    for ancestor in reversed(ctx.ancestors[:-1]):
        if isinstance(ancestor, cst.Call) and ctx.resolve_call(ancestor) in knowledge.WAIT_FOR:
            timeout = argument(ancestor, "timeout", 1)
            return timeout is not None and not is_none(timeout)
        if isinstance(ancestor, cst.With):
            for item in ancestor.items:
                if isinstance(item.item, cst.Call) and ctx.resolve_call(item.item) in knowledge.DEADLINE_CONTEXTS:
                    return True
        if isinstance(ancestor, cst.FunctionDef):
            return False
    return False


@register
class ShutdownBudgetExceeded(Rule):
    code = "BG406"
    name = "shutdown-budget-exceeded"
    severity = Severity.ERROR
    reads = ("call_graph", "shutdown")
    summary = "With grace-period configured: the explicit waits on a shutdown path add up to more than the grace period."

    def is_relevant(self, unit) -> bool:
        if "grace-period" not in self.config.set_keys:
            return False
        roots = unit.index.shutdown.roots
        return any(name in roots for name in unit.summary.functions)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: FileContext) -> None:
        if "grace-period" not in self.config.set_keys:
            return  # no budget to hold the waits against
        root = ctx.index.shutdown.roots.get(ctx.function_qualname or "")
        if root is None:
            return
        if root.after_yield_only:
            waits = _waits_after_yield(node, ctx)
        else:
            waits = timed_waits(ctx.index, ctx.index.reachable([root.function]))
        total = sum(w.seconds for w in waits)
        grace = self.config.grace_period
        if total <= grace:
            return
        parts = " + ".join(f"{w.text} in {w.function.rsplit('.', 1)[-1]}()" for w in waits)
        ctx.report(
            self,
            node.name,
            f"The waits on this shutdown path ({clip(root.how, 24)}) add up to {total:g} s, more than the {grace:g} s grace period",
            f"The waits: {parts} = {total:g} s. SIGKILL arrives before the last wait ends, and what it waited for is "
            "lost. Shorten the waits, run them in parallel, or raise the grace period (terminationGracePeriodSeconds).",
            # where each wait is, as notes (positions in other files are never part of the text: load/cache_keys.py)
            related=tuple(Location(w.path, w.line or 1, w.column, w.line or 1, w.column, f"{w.function.rsplit('.', 1)[-1]}() waits {w.seconds:g} s: {w.text}") for w in waits),
        )


def _waits_after_yield(function: cst.FunctionDef, ctx: FileContext) -> list:
    """A lifespan's shutdown waits: those after its ``yield``, in it and in the functions it calls there
    (what runs before the ``yield`` is start-up)."""
    after: list[cst.Call] = []

    class _Finder(cst.CSTVisitor):
        seen_yield = False

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is function

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            return False

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

        def leave_Yield(self, node: cst.Yield) -> None:
            self.seen_yield = True

        def visit_Call(self, node: cst.Call) -> None:
            if self.seen_yield:
                after.append(node)

    walk(function, _Finder())
    index = ctx.index
    qualname = ctx.function_qualname
    line = ctx.function.line if ctx.function else 0
    waits = []
    callees: list[str] = []
    for call in after:
        wait = timed_wait(index, ctx.to_ir(call), qualname, ctx.path, line)
        if wait is not None:
            waits.append(wait)
        callee = index.resolve_function(ctx.resolve_call(call))
        if callee and callee != qualname:
            callees.append(callee)
    reached = [name for name in index.reachable(callees) if name != qualname]
    return waits + timed_waits(index, reached)
