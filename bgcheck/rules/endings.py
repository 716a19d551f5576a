"""BG2xx: jobs must end, and end in time.

A scheduler can only stop a job between runs; a worker can only stop within
the grace period if what it waits for has a bound. These rules look at job
code (a job's function and everything it calls, see ``bgcheck.model.jobs``).
"""

from __future__ import annotations

import re
from typing import Optional

from bgcheck.syntax.lazy import cst

from bgcheck import knowledge
from bgcheck.diagnostics import Applicability, Fix, Severity, short_name
from bgcheck.syntax.ir import as_call, callee_name, is_literal, ref_name
from bgcheck.syntax.cst_ir import dotted_name, is_none, is_string_statement
from bgcheck.model.locks import lock_api
from bgcheck.syntax.loops import is_endless, polls_without_deadline
from bgcheck.rules.base import Rule, register
from bgcheck.rules.calls import argument, sets_daemon
from bgcheck.rules.notes import notes_from
from bgcheck.rules.relevance import calls_any
from bgcheck.rules.edits import keyword_set
from bgcheck.syntax.walk import find_all, walk
from bgcheck.rules.checker import FileContext

_RUN_TO_END = frozenset({"scheduled", "queued"})


def _job_for(ctx: FileContext, kinds: frozenset):
    """(job, root function) of a job of these kinds whose code this function is, or (None, None)."""
    qualname = ctx.function_qualname
    if not qualname:
        return None, None
    root = ctx.index.reached_from(kinds).get(qualname)
    if root is None:
        return None, None
    jobs = sorted((j for j in ctx.index.job_roots.get(root, ()) if j.kind in kinds), key=lambda j: (j.kind != "scheduled", j.framework))
    return (jobs[0] if jobs else None), root


def _kind(job) -> str:
    return "job" if job.kind == "scheduled" else "task"


def _describe_job(job, root: str, qualname: str) -> str:
    schedule = f", {job.schedule.describe()}" if job.schedule and job.schedule.kind != "unknown" else ""
    text = f"{job.framework} {'job' if job.kind == 'scheduled' else 'task'} `{job.name}`{schedule}"
    if root != qualname:
        text += f", through `{qualname.rsplit('.', 1)[-1]}()`"
    return text


@register
class InfiniteLoopInJob(Rule):
    code = "BG201"
    name = "infinite-loop-in-job"
    severity = Severity.ERROR
    reads = ("call_graph", "call_sites", "job_code", "jobs")
    summary = "A `while True` loop with no stop signal in a scheduled job or queued task: the run never ends and cannot be stopped."

    def is_relevant(self, unit) -> bool:
        # an endless ``while`` in code a scheduled job or a queued task runs (a ``while`` in a class body
        # inside a function is that function's, though the summary does not mark it endless)
        if "while" not in unit.text:
            return False
        reached = unit.index.reached_from(_RUN_TO_END)
        classes = unit.summary.classes
        return any(
            name in reached and (function.endless_loop or any(c.startswith(f"{name}.<locals>.") for c in classes))
            for name, function in unit.summary.functions.items()
        )

    def visit_While(self, node: cst.While, ctx: FileContext) -> None:
        if not is_endless(node):
            return
        job, root = _job_for(ctx, _RUN_TO_END)
        if job is None:
            return
        if job.kind == "scheduled":
            why = (
                "a scheduler can only stop a job between runs, so this run cannot be stopped, and every later run "
                "is skipped or piles up behind it"
            )
        else:
            why = "the worker can only stop between tasks, so this task holds its worker slot for ever"
        ctx.report(
            self,
            node,
            f"This loop never ends, in {job.framework} {_kind(job)} `{short_name(job.name)}`: the run cannot be stopped",
            f"In {_describe_job(job, root, ctx.function_qualname)}: {why}; a deploy kills it mid-work when the grace "
            "period ends. Handle one batch per run and return (let the schedule set the frequency), or test a stop "
            "signal in the loop.",
            end_node=node.test,
            related=notes_from(ctx.index, root, ctx.function_qualname),
        )


@register
class EndlessThreadKeepsProcessAlive(Rule):
    code = "BG202"
    name = "endless-thread-keeps-process-alive"
    severity = Severity.WARNING
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    summary = "A non-daemon thread whose target loops for ever with no stop signal: the process can never exit on its own."

    def is_relevant(self, unit) -> bool:
        # visit_Call: a threading.Thread(...); visit_ClassDef: a thread class whose run() loops for ever
        # (a subclass of a project thread class need not spell "Thread" anywhere in its module)
        index = unit.index
        if calls_any(unit, lambda canonical, _method: canonical == "threading.Thread"):
            return True
        for name in unit.summary.classes:
            run = index.function(f"{name}.run")
            if run is not None and run.endless_loop and index.class_bases(name) & knowledge.THREAD_BASES:
                return True
        return False

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        if ctx.resolve_call(node) != "threading.Thread":
            return
        target = argument(node, "target", 1)
        if target is None or _is_daemon(node, ctx):
            return
        function = ctx.index.resolve_function(ctx.resolve(target))
        summary = ctx.index.function(function) if function else None
        if summary is None or not summary.endless_loop:
            return
        ctx.report(
            self,
            node,
            f"Non-daemon thread whose target `{short_name(summary.name)}()` loops for ever with no stop signal",
            "The process can never exit on its own (a batch job hangs after main returns, and a stop waits until "
            "SIGKILL). Give the loop a stop event (`while not stop.is_set():`) and set it on shutdown, then join with "
            "a timeout.",
        )

    def visit_ClassDef(self, node: cst.ClassDef, ctx: FileContext) -> None:
        qualname = ctx.class_qualname
        if qualname is None or not (ctx.index.class_bases(qualname) & knowledge.THREAD_BASES):
            return
        run = ctx.index.function(f"{qualname}.run")
        if run is None or not run.endless_loop:
            return
        if _daemon_in_ancestry(qualname, ctx.index) or _class_sets_daemon(node):
            return
        if _made_daemon_where_created(qualname, ctx):
            return
        ctx.report(
            self,
            node.name,
            f"`{short_name(node.name.value)}.run()` loops for ever with no stop signal and the thread is not a daemon",
            "The process can never exit on its own. Give the loop a stop event and set it on shutdown, then join with "
            "a timeout.",
        )


def _is_daemon(node: cst.Call, ctx: FileContext) -> bool:
    """``Thread(..., daemon=True)``, or ``t.daemon = True`` / ``t.setDaemon(True)`` on the same variable."""
    daemon = argument(node, "daemon")
    if daemon is not None:
        return ctx.fold(daemon) is not False  # True, or unknown: stay silent
    assign = ctx.parent()
    if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
        return False
    variable = dotted_name(assign.targets[0].target)
    if variable is None:
        return False
    scope = ctx.function_node or ctx.module
    return sets_daemon(scope, variable)


def _daemon_in_ancestry(class_qualname: str, index) -> bool:
    """``daemon = True`` in the class body or ``self.daemon = True`` in a method, of the class or
    of any project class it derives from (a base class's ``__init__`` often sets it)."""
    for name in index.mro(class_qualname):
        cls = index.classes[name][1]
        for bindings in (cls.attrs, cls.self_attrs):
            daemon = bindings.get("daemon")
            if daemon is not None and index.fold(daemon) is True:
                return True
    return False


def _made_daemon_where_created(class_qualname: str, ctx: FileContext) -> bool:
    """Every ``Cls(...)`` in this module makes a daemon: ``Cls(daemon=True)``, or ``t = Cls()`` then ``t.daemon = True``.

    Only this module is searched: the summary keeps no arguments of calls made elsewhere.
    """
    creations: list[bool] = []

    class _Finder(cst.CSTVisitor):
        def __init__(self) -> None:
            self.stack: list[cst.CSTNode] = []
            self.functions: list[cst.FunctionDef] = []

        def on_visit(self, node: cst.CSTNode) -> bool:
            self.stack.append(node)
            if isinstance(node, cst.FunctionDef):
                self.functions.append(node)
            if isinstance(node, cst.Call) and _resolves_to_class(node, class_qualname, ctx):
                creations.append(_created_as_daemon(node, self.stack, self.functions, ctx))
            return True

        def on_leave(self, original_node: cst.CSTNode) -> None:
            self.stack.pop()
            if isinstance(original_node, cst.FunctionDef):
                self.functions.pop()

    walk(ctx.module, _Finder())
    return bool(creations) and all(creations)


def _resolves_to_class(call: cst.Call, class_qualname: str, ctx: FileContext) -> bool:
    name = dotted_name(call.func)
    if name is None or name.rsplit(".", 1)[-1] != class_qualname.rsplit(".", 1)[-1]:
        return False  # cheap test first: the called name ends with the class's name
    ref = ref_name(ctx.summary.global_ref(name))
    return ref is not None and ctx.index.canonical(ref) == class_qualname


def _created_as_daemon(call: cst.Call, stack: list, functions: list, ctx: FileContext) -> bool:
    daemon = argument(call, "daemon")
    if daemon is not None:
        return ctx.fold(daemon) is not False
    parent = stack[-2] if len(stack) >= 2 else None
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
        variable = dotted_name(parent.targets[0].target)
        if variable is not None:
            return sets_daemon(functions[-1] if functions else ctx.module, variable)
    return False


def _class_sets_daemon(node: cst.ClassDef) -> bool:
    """``self.daemon = True``, ``daemon = True`` or ``super().__init__(daemon=True)`` in the class."""
    return sets_daemon(node, only_true=True)


def _no_stop_waits_for(ctx: FileContext, in_daemon_threads: bool) -> Optional[str]:
    """Why no stop waits for a wait of this code (said as --verbose says it), or None: it runs only
    in child processes, which a stop ends mid-wait, or (``in_daemon_threads``: asked for waits
    that hold no stop there) only in daemon threads that nothing joins."""
    if in_daemon_threads and ctx.index.is_unjoined_daemon_thread_code(ctx.function_qualname):
        return "it runs only in daemon threads nobody joins: no stop waits for it"
    if ctx.index.runs_only_as(ctx.function_qualname, "process"):
        return "it runs only in child processes: a stop ends them with SIGTERM, mid-wait"
    return None


def _report_unbounded_wait(rule: Rule, node: cst.Call, ctx: FileContext, peer: bool) -> None:
    """BG203 (``peer``: a wait for another service) and BG206 (every other wait): a blocking wait
    in job code that is given no time bound."""
    if not ctx.in_job_code:
        return
    name = ctx.resolve_call(node)
    if not name:
        return
    for wait in knowledge.BLOCKING_WAITS:
        if not wait.regex.fullmatch(name):
            continue
        if wait.peer is not peer:
            return
        if not _is_unbounded(node, wait, ctx):
            return
        guards = ctx.call_guards(node)
        making = ctx.index.jobs_making(ctx.function_qualname, guards) if guards else None
        if making == []:
            tested = ", ".join(f"`{name.lstrip('@')}`" for name in sorted({guard[0] for guard in guards}))
            ctx.silence(rule, node, f"job code reaches it only with constants for {tested} under which this call is not made")
            return
        if wait.family and wait.family in ctx.index.default_timeouts():
            ctx.silence(rule, node, f"the project gives every {wait.family} call a default timeout")
            return
        bound = ctx.index.settings_bounds().get(wait.family)
        if bound is not None:
            ctx.silence(rule, node, bound)
            return
        if _reaps_a_killed_process(node, ctx):
            ctx.silence(rule, node, "the process was killed, or waited for by communicate(), just before: the wait only collects its exit status")
            return
        if wait.consumer_wait and _stops_on_sentinel(node, ctx):
            ctx.silence(rule, node, "the consumer stops on a sentinel it is sent")
            return
        # A stop ends a child process mid-wait, so a local wait there holds no stop (BG206); a wait for
        # another service still never ends when the other side never answers, and the child does no
        # more work (a poller that stops polling), so BG203 reports it there too.
        unwaited = None if peer else _no_stop_waits_for(ctx, in_daemon_threads=wait.consumer_wait)
        if unwaited is not None:
            ctx.silence(rule, node, unwaited)
            return
        job = making[0] if making else ctx.job_of()
        other_side = "the other side never answers" if peer else "what it waits for never comes"
        if peer and ctx.index.runs_only_as(ctx.function_qualname, "process"):
            harm = "this run never ends and the child process running it does no more work until something kills it"
        else:
            harm = "this run never ends and the worker cannot stop within the grace period"
        ctx.report(
            rule,
            node,
            f"{wait.what} waits with no timeout in job `{ctx.job_label(job)}`",
            f"This is job code (job `{job}`): if {other_side}, {harm}. "
            f"{wait.advice or f'Pass `{wait.timeout_kw}=` and handle the timeout.'}",
            related=notes_from(ctx.index, job, ctx.function_qualname),
        )
        return


def _relevant_to_waits(unit, loops: bool) -> bool:
    job_code = unit.index.job_code
    if not any(name in job_code for name in unit.summary.functions):
        return False
    return (loops and "while" in unit.text) or calls_any(unit, _waits, job_code)


@register
class UnboundedWaitInJob(Rule):
    code = "BG203"
    name = "unbounded-wait-in-job"
    severity = Severity.WARNING
    reads = ("call_graph", "call_sites", "default_timeouts", "job_code", "job_contexts", "jobs", "settings", "threads")
    summary = "A call to another service with no time bound in job code (requests without timeout, httpx with timeout=None, AsyncResult.get(), ...)."

    def is_relevant(self, unit) -> bool:
        # visit_Call: a blocking wait's canonical name in job code
        return _relevant_to_waits(unit, loops=False)

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        _report_unbounded_wait(self, node, ctx, peer=True)


@register
class UnboundedLocalWaitInJob(Rule):
    code = "BG206"
    split_from = "BG203"
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    name = "unbounded-local-wait-in-job"
    severity = Severity.WARNING
    reads = ("call_graph", "call_sites", "default_timeouts", "job_code", "job_contexts", "jobs", "settings", "threads")
    summary = (
        "A wait with no time bound in job code for work on this machine (Future.result(), join(), queue.get(), "
        "a subprocess, a polling loop without deadline)."
    )

    def is_relevant(self, unit) -> bool:
        # visit_Call: a blocking wait's canonical name in job code; visit_While: a loop in job code
        return _relevant_to_waits(unit, loops=True)

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        _report_unbounded_wait(self, node, ctx, peer=False)

    def visit_While(self, node: cst.While, ctx: FileContext) -> None:
        if not ctx.in_job_code or not polls_without_deadline(node, _sleeps(node, ctx)):
            return
        if _compares_a_clock(node.test, ctx):  # ``while time.time() < start + 5``
            ctx.silence(self, node, "the loop's condition compares a clock: it is the deadline")
            return
        if _waits_for_a_signal_message(node, ctx):  # ``while control.empty():``, the message never taken
            ctx.silence(self, node, "the loop waits for a stop message: it is the stop signal itself")
            return
        if loop_flag_set_elsewhere(node, ctx):  # ``while not self._shut_down:``, set by stop()
            ctx.silence(self, node, "the loop's condition is a flag another method of the class sets: its stop")
            return
        unwaited = _no_stop_waits_for(ctx, in_daemon_threads=True)
        if unwaited is not None:
            ctx.silence(self, node, unwaited)
            return
        ctx.report(
            self,
            node,
            f"This loop polls with a sleep and no deadline in job `{ctx.job_label(ctx.job_of())}`",
            f"This is job code (job `{ctx.job_of()}`): if the condition never changes, the run never ends. Give it a "
            "deadline (`time.monotonic()`) or a maximum number of tries.",
            end_node=node.test,
            related=notes_from(ctx.index, ctx.job_of(), ctx.function_qualname),
        )


def _waits(canonical, _method) -> bool:
    return bool(canonical) and any(wait.regex.fullmatch(canonical) for wait in knowledge.BLOCKING_WAITS)


def _sleeps(loop: cst.While, ctx: FileContext) -> bool:
    found = False

    class _Finder(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> bool:
            return False

        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            if not found and ctx.resolve_call(node) in knowledge.SLEEP_CALLS and not _yields_only(node, ctx):
                found = True

    walk(loop.body, _Finder())
    return found


def _yields_only(sleep: cst.Call, ctx: FileContext) -> bool:
    """``await asyncio.sleep(0)``: a zero sleep hands the loop to other tasks and waits for nothing
    (a cooperative yield in a reading loop), so it is not a poll."""
    positional = [arg for arg in sleep.args if arg.keyword is None]
    duration = positional[0].value if positional else None
    for arg in sleep.args:
        if arg.keyword is not None and arg.keyword.value in ("delay", "seconds", "secs"):
            duration = arg.value
    return duration is not None and ctx.fold(duration) == 0


def _compares_a_clock(test: cst.BaseExpression, ctx: FileContext) -> bool:
    """Does a loop condition compare a clock reading (``time.time()``, ``time.monotonic()``, ..., or the
    project's own clock function: ``ProjectIndex.reads_a_clock``) with something?"""
    found = False

    class _Finder(cst.CSTVisitor):
        def visit_Comparison(self, node: cst.Comparison) -> None:
            nonlocal found
            sides = [node.left, *(c.comparator for c in node.comparisons)]
            if any(_reads_a_clock(side, ctx) for side in sides):
                found = True

    walk(test, _Finder())
    return found


def _reads_a_clock(side: cst.BaseExpression, ctx: FileContext) -> bool:
    """A clock reading, also inside arithmetic: ``now() - start``, ``(time.time() - begun) * 1000``."""
    while isinstance(side, cst.UnaryOperation):
        side = side.expression
    if isinstance(side, cst.BinaryOperation):
        return _reads_a_clock(side.left, ctx) or _reads_a_clock(side.right, ctx)
    return isinstance(side, cst.Call) and ctx.index.reads_a_clock(ctx.resolve_call(side))


def loop_flag_set_elsewhere(loop: cst.While, ctx: FileContext, then_cancels: bool = False) -> bool:
    """``while not self._shut_down:`` / ``while self.spinning:`` (alone, negated, or ``and``-ed with
    other tests), where another method of the class assigns that attribute (``stop()`` sets
    ``self._shut_down = True``, ``__exit__`` sets ``self.spinning = False``): the flag is the loop's
    stop, and whoever stops the work flips it; so is an Event of the object the loop tests (``while
    not self._stopped.is_set():``, ``self._stopped.set()`` in ``stop()``). ``__init__`` giving the
    flag its first value, or the loop's own function setting it, does not count; neither does an
    attribute no other method sets.
    ``then_cancels`` (BG101): that method also cancels something after setting the flag, itself or
    through a method of the class that does (``self._cancel_all()``, also handed to
    ``run_coroutine_threadsafe``), so the cancellation the loop catches comes with its flag already
    set (``stop()``: ``self.should_stop = True`` then ``self.task.cancel()``)."""
    function = ctx.function_node
    owner = next((node for node in reversed(ctx.ancestors) if isinstance(node, cst.ClassDef)), None)
    if function is None or owner is None:
        return False
    flags, events = set(), set()
    for test, _negated in _tested_parts([loop.test, *_tested_at_the_top(loop)]):
        if _self_attribute(test) is not None:
            flags.add(test.attr.value)
        elif _is_set_test(test):  # ``self._stopped.is_set()``: the event is the flag, ``set()`` flips it
            events.add((test.func.value.attr.value, knowledge.EVENT_SETTERS[test.func.attr.value]))
    if not flags and not events:
        return False
    found = flag_set = False
    cancelling = _methods_that_cancel(owner, function) if then_cancels else set()

    class _Finder(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is not function and node.name.value != "__init__"

        def visit_Assign(self, node: cst.Assign) -> None:
            nonlocal flag_set
            for target in node.targets:
                written = target.target
                if isinstance(written, cst.Attribute) and isinstance(written.value, cst.Name) and written.value.value == "self":
                    flag_set = flag_set or written.attr.value in flags

        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found, flag_set
            if flag_set and (_is_cancel_call(node) or _self_attribute(node.func) in cancelling):
                found = True
            func = node.func
            if isinstance(func, cst.Attribute) and _self_attribute(func.value) is not None:
                flag_set = flag_set or (func.value.attr.value, func.attr.value) in events

    for statement in owner.body.body:
        if isinstance(statement, cst.FunctionDef) and statement is not function and statement.name.value != "__init__":
            flag_set = False  # per method, in source order
            walk(statement, _Finder())
            found = found or (flag_set and not then_cancels)
    return found


def closure_flag_set_before_cancel(loop: cst.While, ctx: FileContext) -> bool:
    """``while not stopping:`` in a nested coroutine that declares ``nonlocal stopping``, where the
    enclosing function sets ``stopping`` and, after it, cancels something (``finally: stopping =
    True`` then ``for w in workers: w.cancel()``): the closure's counterpart of a method that sets
    the object's flag before it cancels (loop_flag_set_elsewhere), so a cancellation the loop
    catches comes with its flag already set."""
    function = ctx.function_node
    outer = next((node for node in reversed(ctx.ancestors) if isinstance(node, cst.FunctionDef) and node is not function), None)
    if function is None or outer is None:
        return False
    shared = _nonlocal_names(function)
    # name -> the constant that stops the loop: ``True`` for ``while not stopping``, ``False`` for
    # ``while running`` (the first value given, ``stopping = False``, does not stop it)
    flags = {
        test.value: "True" if negated else "False"
        for test, negated in _tested_parts([loop.test]) if isinstance(test, cst.Name) and test.value in shared
    }
    if not flags:
        return False
    flag_set = False
    for node in find_all(outer, (cst.Assign, cst.Call)):  # in source order, nested functions left out
        if isinstance(node, cst.Assign):
            flag_set = flag_set or (isinstance(node.value, cst.Name) and any(
                isinstance(t.target, cst.Name) and flags.get(t.target.value) == node.value.value for t in node.targets))
        elif flag_set and _is_cancel_call(node):
            return True
    return False


def _tested_parts(tests: list) -> list:
    """(test, negated) for each part of loop tests joined by ``and``, through ``not``: the flags and
    events a ``while`` goes on while (``while not self.stopping and self.ready.is_set():``)."""
    parts, todo = [], [(test, False) for test in tests]
    while todo:
        test, negated = todo.pop()
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            todo += [(test.left, negated), (test.right, negated)]
        elif isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            todo.append((test.expression, not negated))
        else:
            parts.append((test, negated))
    return parts


def _nonlocal_names(function: cst.FunctionDef) -> set[str]:
    """The names a function declares ``nonlocal`` (its nested functions and classes left out)."""
    names: set[str] = set()

    class _Finder(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is function

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            return False

        def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
            names.update(item.name.value for item in node.names)

    walk(function, _Finder())
    return names


def _tested_at_the_top(loop: cst.While) -> list:
    """``while True: if self._stopping: break``: a first statement that leaves the loop on a test
    is the loop's condition written another way (its test, for ``loop_flag_set_elsewhere``)."""
    body = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ()
    first = body[0] if body else None
    if not isinstance(first, cst.If) or first.orelse is not None or not isinstance(first.body, cst.IndentedBlock):
        return []
    statements = first.body.body
    if len(statements) != 1 or not isinstance(statements[0], cst.SimpleStatementLine):
        return []
    # ``break; "..."``: a string beside the exit does nothing
    said = [small for small in statements[0].body if not is_string_statement(small)]
    return [first.test] if said and isinstance(said[-1], (cst.Break, cst.Return)) else []


def _is_set_test(test: cst.BaseExpression) -> bool:
    """``self.<event>.is_set()``: an Event of the object tested (knowledge.EVENT_SETTERS)."""
    return (
        isinstance(test, cst.Call)
        and not test.args
        and isinstance(test.func, cst.Attribute)
        and test.func.attr.value in knowledge.EVENT_SETTERS
        and _self_attribute(test.func.value) is not None
    )


def _is_cancel_call(node: cst.Call) -> bool:
    """``<anything>.cancel()``."""
    return isinstance(node.func, cst.Attribute) and node.func.attr.value == "cancel"


def _self_attribute(node: cst.BaseExpression) -> Optional[str]:
    """``self.m`` -> "m" (an attribute or a method of the object), else None."""
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
        return node.attr.value
    return None


def _methods_that_cancel(owner: cst.ClassDef, function: cst.CSTNode) -> set[str]:
    """The methods of a class (other than ``function``) that call ``.cancel()`` on something."""
    names: set[str] = set()

    class _Cancels(cst.CSTVisitor):
        def __init__(self) -> None:
            self.found = False

        def visit_Call(self, node: cst.Call) -> None:
            self.found = self.found or _is_cancel_call(node)

    for statement in owner.body.body:
        if isinstance(statement, cst.FunctionDef) and statement is not function:
            finder = _Cancels()
            walk(statement, finder)
            if finder.found:
                names.add(statement.name.value)
    return names


def _waits_for_a_signal_message(loop: cst.While, ctx: FileContext) -> bool:
    """``while control.empty():`` (alone or ``and``-ed with other tests) in a function that never takes an
    item off that queue (no ``get()``/``get_nowait()`` on the same expression): the loop waits for a
    message whose arrival is all it reads, a signal like an ``Event``'s ``is_set()``, and whoever stops
    the loop sends it (the stop-message pattern). A queue whose item is then read
    (``while results.empty(): ...`` then ``results.get()``) is a wait for an answer, and is reported."""
    scope = ctx.function_node
    if scope is None:
        return False
    tests = [loop.test]
    while isinstance(tests[-1], cst.BooleanOperation) and isinstance(tests[-1].operator, cst.And):
        last = tests.pop()
        tests += [last.left, last.right]
    receivers = [
        t.func.value
        for t in tests
        if isinstance(t, cst.Call) and isinstance(t.func, cst.Attribute) and t.func.attr.value == "empty" and not t.args
    ]
    if not receivers:
        return False
    taken = False

    class _Finder(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            nonlocal taken
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in knowledge.QUEUE_GET_METHODS:
                if any(func.value.deep_equals(receiver) for receiver in receivers):
                    taken = True

    walk(scope, _Finder())
    return not taken


def _stops_on_sentinel(node: cst.Call, ctx: FileContext) -> bool:
    """``item = q.get()`` followed, in the same function, by ``if item is None: break`` (or ``return``,
    ``raise``; ``is``/``==`` a module-level sentinel), or ``while (item := q.get()) is not None``: the
    standard library's way to stop a worker: whoever stops it puts the sentinel, and the wait ends."""
    parent = ctx.parent()
    if isinstance(parent, cst.NamedExpr) and isinstance(parent.target, cst.Name):
        comparison = ctx.parent(2)
        if isinstance(comparison, cst.Comparison) and _is_sentinel_test(comparison, parent.target.value, ctx):
            return True
    if not isinstance(parent, cst.Assign) or len(parent.targets) != 1 or not isinstance(parent.targets[0].target, cst.Name):
        return False
    name = parent.targets[0].target.value
    scope = ctx.function_node
    if scope is None:
        return False
    found = False

    class _Finder(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> bool:
            return node is scope

        def visit_If(self, node: cst.If) -> None:
            nonlocal found
            if isinstance(node.test, cst.Comparison) and _is_sentinel_test(node.test, name, ctx) and _leaves(node.body):
                found = True

    walk(scope, _Finder())
    return found


def _is_sentinel_test(test: cst.Comparison, name: str, ctx: FileContext) -> bool:
    """``name is None`` / ``name is STOP`` / ``name == STOP`` (and ``is not``, for a ``while`` test)."""
    left = test.left.target if isinstance(test.left, cst.NamedExpr) else test.left
    if not isinstance(left, cst.Name) or left.value != name or len(test.comparisons) != 1:
        return False
    comparison = test.comparisons[0]
    if not isinstance(comparison.operator, (cst.Is, cst.IsNot, cst.Equal)):
        return False
    other = comparison.comparator
    if is_none(other):
        return True
    name = ref_name(ctx.to_ir(other))
    if name is None:
        return False
    bound = ctx.index.lookup_constant(name)
    return as_call(bound) is not None or is_literal(bound)  # ``STOP = object()``, ``STOP = "stop"``


def _leaves(body: cst.BaseSuite) -> bool:
    statements = body.body if isinstance(body, cst.IndentedBlock) else [body]
    for statement in statements:
        small = statement.body if isinstance(statement, cst.SimpleStatementLine) else []
        if any(isinstance(s, (cst.Break, cst.Return, cst.Raise)) for s in small):
            return True
        if isinstance(statement, cst.SimpleStatementSuite) and any(isinstance(s, (cst.Break, cst.Return, cst.Raise)) for s in statement.body):
            return True
    if isinstance(body, cst.SimpleStatementSuite):
        return any(isinstance(s, (cst.Break, cst.Return, cst.Raise)) for s in body.body)
    return False


def _reaps_a_killed_process(node: cst.Call, ctx: FileContext) -> bool:
    """``proc.kill()`` as a statement that always runs before ``proc.wait()`` (or ``communicate()``):
    an earlier statement of the block the wait is in, or of a block around it. SIGKILL cannot be
    caught or ignored, so the wait only collects the exit status (the kill-then-reap idiom). A
    ``terminate()`` asks, and may be ignored: it bounds nothing. So does ``proc.communicate(...)``
    before ``proc.wait()``: it returns only once the process has ended (it reads its output to
    the end and reaps it; its own wait is judged at its own call), so the wait only collects the
    exit status."""
    func = node.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in ("wait", "communicate"):
        return False
    receiver = dotted_name(func.value)
    if receiver is None:
        return False
    ended_by = ("kill", "communicate") if func.attr.value == "wait" else ("kill",)
    inner: cst.CSTNode = node
    for outer in reversed(ctx.ancestors[:-1]):
        if isinstance(outer, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return False
        body = outer.body if isinstance(outer, (cst.IndentedBlock, cst.Module)) else None
        if body is not None:
            for statement in body:
                if statement is inner:
                    break
                if _kills(statement, receiver, ended_by, ctx):
                    return True
        inner = outer
    return False


def _kills(statement: cst.CSTNode, receiver: str, methods: tuple, ctx: FileContext) -> bool:
    """Is ``statement`` a line whose calls include ``<receiver>.kill()`` (or another of ``methods``:
    ``out, err = proc.communicate()`` too), alone or in the body of ``with suppress(OSError):`` or
    of a ``try:``? The kill is made either way; what it may raise (the process already gone) is
    caught."""
    if isinstance(statement, (cst.With, cst.Try)):
        if isinstance(statement, cst.With) and not all(
            isinstance(item.item, cst.Call) and ctx.resolve_call(item.item) == "contextlib.suppress" for item in statement.items
        ):
            return False
        body = statement.body.body if isinstance(statement.body, cst.IndentedBlock) else ()
        return any(_kills(inner, receiver, methods, ctx) for inner in body)
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        call = small.value if isinstance(small, (cst.Expr, cst.Assign)) else None
        if (
            isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value in methods
            and dotted_name(call.func.value) == receiver
        ):
            return True
    return False


def _is_unbounded(node: cst.Call, wait, ctx: FileContext) -> bool:
    if any(arg.star for arg in node.args):
        return False  # *args / **kwargs may carry the timeout
    if wait.nonblocking_kw:
        block = argument(node, wait.nonblocking_kw, wait.nonblocking_pos)
        if block is not None and ctx.fold(block) is not True:
            return False  # block=False (or unknown) does not wait
    timeout = argument(node, wait.timeout_kw, wait.timeout_pos)
    if timeout is None:
        return not wait.explicit_none_only
    if wait.explicit_none_only and isinstance(timeout, cst.Name) and _none_on_a_path(timeout.value, node, ctx):
        return True
    return ctx.fold(timeout) is None  # an explicit None; a value that does not fold is given the benefit


def _none_on_a_path(name: str, call: cst.Call, ctx: FileContext) -> bool:
    """``timeout = None`` on one branch (``# use the client's default``) and a ``Timeout`` on the other,
    then ``client.get(url, timeout=timeout)``: where a bound is on by default and None turns it off
    (httpx), that path waits with no bound. The None reaches the call unless a binding of the name
    after it, in its own block or one around it, replaces it, or the call is under a test of the name."""
    function = ctx.function_node
    if function is None:
        return False
    if any(isinstance(a, (cst.If, cst.While, cst.IfExp)) and _mentions(a.test, name) for a in ctx.ancestors):
        return False  # ``if timeout is not None: ...``
    bindings: list[tuple[bool, tuple]] = []  # (bound to None, the blocks it is in), in source order
    blocks: list[int] = []
    defaulting: set[int] = set()  # the body of ``if timeout is None:``, where the None is replaced
    reached = False

    class Bindings(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> bool:
            return node is function
        visit_ClassDef = visit_Lambda = lambda self, node: False

        def visit_If(self, node: cst.If) -> None:
            if _tests_for_none(node.test, name):
                defaulting.add(id(node.body))

        def visit_IndentedBlock(self, node) -> None:
            blocks.append(id(node))

        def leave_IndentedBlock(self, node) -> None:
            blocks.pop()

        def visit_Assign(self, node: cst.Assign) -> None:
            if not reached and any(isinstance(t.target, cst.Name) and t.target.value == name for t in node.targets):
                if defaulting.intersection(blocks):
                    bindings.append((False, ()))  # the default filled in where the value is None: none reaches past it
                else:
                    bindings.append((is_none(node.value), tuple(blocks)))

        def visit_Call(self, node: cst.Call) -> None:
            nonlocal reached
            if node is call:
                reached = True

    walk(function, Bindings())
    for position, (to_none, where) in enumerate(bindings):
        if to_none and not any(where[: len(later)] == later for _none, later in bindings[position + 1:]):
            return True
    return False


def _mentions(test: cst.BaseExpression, name: str) -> bool:
    return any(n.value == name for n in find_all(test, (cst.Name,)))


def _tests_for_none(test: cst.BaseExpression, name: str) -> bool:
    """``name is None``, ``name == None`` or ``not name``: true where the value is still None."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return isinstance(test.expression, cst.Name) and test.expression.value == name
    if isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name) and test.left.value == name and len(test.comparisons) == 1:
        target = test.comparisons[0]
        return isinstance(target.operator, (cst.Is, cst.Equal)) and is_none(target.comparator)
    return False


@register
class RowLockWithoutSkipLocked(Rule):
    code = "BG204"
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    fixable = "unsafe"
    name = "row-lock-without-skip-locked"
    severity = Severity.WARNING
    reads = ("call_graph", "call_sites", "job_code", "jobs", "locks")
    summary = "A batch of rows (a slice, `.first()`, `LIMIT`) locked with `select_for_update()` / `with_for_update()` / `FOR UPDATE` in job code without skip_locked or nowait."

    def is_relevant(self, unit) -> bool:
        return unit.has_job_code and ("for_update" in unit.text or re.search(r"(?i)for\s+update", unit.text) is not None)

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in knowledge.ROW_LOCK_METHODS:
            return
        if not ctx.in_job_code:
            return
        for option in knowledge.ROW_LOCK_METHODS[func.attr.value]:
            value = argument(node, option)
            if value is not None and ctx.fold(value) is not False:
                return
        if any(arg.star == "**" for arg in node.args):
            return
        chain = _query_chain(node, ctx)
        if func.attr.value == "select_for_update" and _of_one_parent(node, ctx):
            return  # ``order.payments.select_for_update()...``: the rows of one object, not a queue's batch
        if _locks_one_named_row(chain):
            return  # a mutex on that row: there is no batch for replicas to split
        if not _takes_a_batch(chain):
            return  # every matching row, locked to serialise with their other writers: nothing to split
        self._report(node, f"`{func.attr.value}()`", ctx, fix=_skip_locked_fix(node, ctx))

    def visit_SimpleString(self, node: cst.SimpleString, ctx: FileContext) -> None:
        self._check_sql(node, ctx)

    def visit_ConcatenatedString(self, node: cst.ConcatenatedString, ctx: FileContext) -> None:
        self._check_sql(node, ctx)

    def _check_sql(self, node, ctx: FileContext) -> None:
        if isinstance(ctx.parent(), cst.ConcatenatedString) or not ctx.in_job_code:
            return
        if isinstance(ctx.parent(), cst.Expr):
            return  # a docstring or a string on its own: text, not a query
        try:
            text = node.evaluated_value if isinstance(node, cst.SimpleString) else _concatenated(node)
        except Exception:
            return
        if not isinstance(text, str) or not knowledge.SQL_FOR_UPDATE.search(text) or not knowledge.SQL_SELECT.search(text):
            return
        if knowledge.SQL_NOT_WAITING.search(text):
            return
        if not knowledge.SQL_BATCH.search(text):
            return  # every matching row: as for the ORM calls (_takes_a_batch)
        self._report(node, "`SELECT ... FOR UPDATE`", ctx)

    def _report(self, node, what: str, ctx: FileContext, fix: Optional[Fix] = None) -> None:
        if _runs_only_under_a_lock(ctx):
            return  # one replica at a time runs this job: there is no other replica to queue behind
        ctx.report(
            self,
            node,
            f"{what} in job `{ctx.job_label(ctx.job_of())}` waits for rows another replica has locked",
            f"This is job code (job `{ctx.job_of()}`): replicas queue behind each other instead of splitting the work, "
            "and a stuck holder stalls them all. Use `skip_locked=True` (`FOR UPDATE SKIP LOCKED`) so each replica "
            "takes rows nobody holds, or `nowait=True`.",
            related=notes_from(ctx.index, ctx.job_of(), ctx.function_qualname),
            fix=fix,
        )


def _query_chain(node: cst.Call, ctx: FileContext) -> list:
    """The calls and subscripts of the query the locking call is part of, before it
    (``X.filter(pk=1).select_for_update()``) and after it (``.select_for_update().get(pk=1)``,
    ``.select_for_update()[:100]``)."""
    chain: list = []
    current: cst.BaseExpression = node.func.value if isinstance(node.func, cst.Attribute) else node.func
    while True:
        if isinstance(current, cst.Call) and isinstance(current.func, cst.Attribute):
            chain.append(current)
            current = current.func.value
        elif isinstance(current, cst.Subscript):
            chain.append(current)
            current = current.value
        else:
            break
    ancestors = ctx.ancestors
    position = len(ancestors) - 1
    while position >= 1:
        outer = ancestors[position - 1]
        if isinstance(outer, cst.Subscript) and outer.value is ancestors[position]:
            chain.append(outer)
            position -= 1
            continue
        if position < 2:
            break
        call = ancestors[position - 2]
        if not (isinstance(outer, cst.Attribute) and outer.value is ancestors[position] and isinstance(call, cst.Call) and call.func is outer):
            break
        chain.append(call)
        position -= 2
    return chain


def _of_one_parent(node: cst.Call, ctx: FileContext) -> bool:
    """Does the locked Django query start from a related manager of one model instance
    (``order.payments.select_for_update()``, ``self.items.filter(...).select_for_update()`` in a
    model's method)? Its rows belong to that parent: the lock serialises work on one object, and
    replicas handling other objects never wait for it. A model class's manager (``Order.objects``,
    ``Order._default_manager``, a custom manager ``Order.pending``) is a whole table."""
    root: cst.BaseExpression = node.func
    while isinstance(root, (cst.Attribute, cst.Call, cst.Subscript)):
        if isinstance(root, cst.Attribute) and isinstance(root.value, cst.Name):
            break
        root = root.func if isinstance(root, cst.Call) else root.value
    if not isinstance(root, cst.Attribute) or not isinstance(root.value, cst.Name):
        return False
    if root.attr.value in knowledge.CLASS_MANAGER_ATTRIBUTES or root is node.func:
        return False
    holder = ctx.to_ir(root.value)
    if holder[0] == "ref":
        return False  # a class, a module or an alias of one: ``Order.pending`` is a table's manager
    if root.value.value == "self":
        owner = as_call(holder)
        return owner is not None and bool(ctx.index.class_bases(owner.target) & knowledge.DJANGO_MODEL_BASES)
    return root.value.value != "cls"


def _locks_one_named_row(chain: list) -> bool:
    """The locked query names one row: ``.get(pk=...)``, ``.one()``, or a filter on the primary key
    (``.filter(pk=x)``), before or after the lock."""
    for link in chain:
        if not isinstance(link, cst.Call):
            continue
        method = link.func.attr.value
        if method in knowledge.SINGLE_ROW_METHODS:
            return True
        keys = {arg.keyword.value for arg in link.args if arg.keyword is not None}
        if keys & knowledge.PRIMARY_KEY_FILTERS.get(method, frozenset()):
            return True
    return False


def _takes_a_batch(chain: list) -> bool:
    """Does the locked query take some of the matching rows, not all of them: a slice
    (``[:100]``, ``[0]``), or a method that limits it (``.first()``, ``.limit(n)``)? Only such a
    claim is work replicas can split: a run that locks every matching row wants all of them, and
    ``skip_locked`` would make it leave some out."""
    return any(
        isinstance(link, cst.Subscript) or link.func.attr.value in knowledge.ROW_BATCH_METHODS for link in chain
    )


def _skip_locked_fix(node: cst.Call, ctx: FileContext) -> Optional[Fix]:
    """BG204's fix: ``skip_locked=True`` on the ORM call (the SQL of a string is left alone: its
    dialect and layout are the author's). Unsafe: the query no longer waits for a row another
    transaction holds, it leaves it out; code that expects a given row (``.get(pk=...)``) now
    finds none while it is locked."""
    positional = [arg for arg in node.args if arg.keyword is None]
    if positional:
        return None  # ``select_for_update(True)``: which option is meant is the author's to say
    edit = keyword_set(ctx, node, "skip_locked", "True")
    return Fix(Applicability.UNSAFE, "Add `skip_locked=True`", (edit,)) if edit is not None else None


def _runs_only_under_a_lock(ctx: FileContext) -> bool:
    """Does every job that reaches this code take a distributed lock (redis lock, advisory lock,
    celery_once, ...)? Then the replicas do not run it side by side, and a row lock cannot make
    them queue behind each other."""
    index = ctx.index
    function = ctx.function_qualname
    locked = {job.function for site in index.locks for job in site.jobs if job.function}
    if not locked:
        return False
    roots = [root for root in sorted(index.job_roots) if function in _reach(index, root)]
    return bool(roots) and all(root in locked for root in roots)


_REACH: dict = {}


def _reach(index, root: str) -> set:
    """Functions a job root reaches (memoised per index)."""
    key = (id(index), root)
    cached = _REACH.get(key)
    if cached is None or cached[0] is not index:
        if len(_REACH) > 4096:
            _REACH.clear()
        cached = _REACH[key] = (index, set(index.reachable([root])))
    return cached[1]


def _concatenated(node: cst.ConcatenatedString) -> Optional[str]:
    parts = []
    for side in (node.left, node.right):
        if isinstance(side, cst.SimpleString):
            parts.append(side.evaluated_value)
        elif isinstance(side, cst.ConcatenatedString):
            parts.append(_concatenated(side))
        else:
            return None
    if not all(isinstance(p, str) for p in parts):
        return None
    return "".join(parts)


@register
class ScheduledJobWithoutLock(Rule):
    code = "BG205"
    name = "scheduled-job-without-lock"
    severity = Severity.WARNING
    reads = ("call_graph", "job_code", "jobs")
    summary = "With more than one replica: a scheduled job that runs in every process and takes no distributed lock runs once per replica."

    def is_relevant(self, unit) -> bool:
        return self.config.replicas > 1 and unit.has_job_code

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: FileContext) -> None:
        if self.config.replicas <= 1:
            return  # one replica: a scheduled job runs once however many processes it has
        qualname = ctx.function_qualname
        jobs = [j for j in ctx.index.job_roots.get(qualname or "", ()) if j.kind == "scheduled" and j.per_process]
        if not jobs or _takes_lock(qualname, ctx):
            return
        job = jobs[0]
        schedule = f", {job.schedule.describe()}" if job.schedule and job.schedule.kind != "unknown" else ""
        replicas = self.config.replicas
        ctx.report(
            self,
            node.name,
            f"Scheduled job `{short_name(job.name)}` runs on each of the {replicas} replicas: no distributed lock",
            f"`{job.name}` ({job.framework}{schedule}) runs in every process, and the configuration says {replicas} "
            f"replicas: it runs {replicas} times per tick, and the runs can overlap. Take a distributed lock whose TTL "
            "is longer than the job's longest run, or run the scheduler in one process only (a single scheduler "
            "deployment, Celery beat).",
        )


def _takes_lock(qualname: str, ctx: FileContext) -> bool:
    """Does the job, or a function it calls, take a distributed lock (a call or a decorator of
    ``knowledge.LOCK_APIS``, or a decorator whose name says lock)?"""
    index = ctx.index
    function = index.function(qualname)
    for decorator in function.decorators if function else ():
        target = callee_name(decorator)
        if target and knowledge.LOCK_DECORATOR_WORDS.search(target.rsplit(".", 1)[-1]):
            return True
        if target and lock_api(index.canonical(target)) is not None:
            return True
    for reached in index.reachable([qualname]):
        summary = index.function(reached)
        for call in summary.calls if summary else ():
            if lock_api(index.canonical(call) or call) is not None:
                return True
    return False
