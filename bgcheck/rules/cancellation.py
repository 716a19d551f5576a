"""BG1xx: stop requests must propagate.

A stop reaches running work as an exception (CancelledError, SystemExit,
Celery's SoftTimeLimitExceeded). A handler that catches it and carries on
hides the stop: the work reports success, and whatever waits for it to stop
(TaskGroup, asyncio.timeout, the shutdown path) waits for ever.
"""

from __future__ import annotations

import re
from typing import Optional

from bgcheck.syntax.lazy import cst

import builtins

from bgcheck.model import execution
from bgcheck.syntax import suspension
from bgcheck import knowledge
from bgcheck.diagnostics import Applicability, Edit, Fix, Severity, short_name
from bgcheck.syntax.flow import BREAK, CONTINUE, CONVERT, FALL, RAISE, RETURN, always_raises, escaping_jumps, exits
from bgcheck.syntax.ir import UNKNOWN, as_seconds
from bgcheck.syntax.cst_ir import dotted_name, is_none, is_string_statement
from bgcheck.rules.base import Rule, register
from bgcheck.rules.done_futures import awaits_only_done_futures, awaits_only_timed_out_futures, done_callback_methods
from bgcheck.syntax.walk import find_all, walk
from bgcheck.rules.checker import FileContext
from bgcheck.rules.edits import name_for_import
from bgcheck.rules.endings import closure_flag_set_before_cancel, loop_flag_set_elsewhere
from bgcheck.rules.notes import notes_from
from bgcheck.rules.relevance import calls_any, handlers


def _caught_names(handler: cst.ExceptHandler, ctx: FileContext) -> list[Optional[str]]:
    """Canonical names of what a handler catches ([] for a bare except)."""
    if handler.type is None:
        return []
    elements = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
    names = []
    for element in elements:
        node = element.value if isinstance(element, cst.Element) else element
        if isinstance(node, cst.Call):
            target = ctx.resolve_call(node)
            names.append(f"{target}()" if target else None)
        else:
            names.append(ctx.resolve(node))
    return names


def _cancellation_kind(name: Optional[str]) -> Optional[str]:
    if name is None:
        return None
    if name in knowledge.CANCELLATION_EXCEPTIONS:
        return knowledge.CANCELLATION_EXCEPTIONS[name]
    if name.endswith("()") and name[:-2] in knowledge.CANCELLATION_CLASS_FACTORIES:
        return knowledge.CANCELLATION_CLASS_FACTORIES[name[:-2]]
    return None


def _except_keyword(handler) -> str:
    return "except*" if isinstance(handler, cst.ExceptStarHandler) else "except"


def _function_or_module(ctx: FileContext) -> cst.CSTNode:
    return ctx.function_node or ctx.module


def _is_cancel_then_await(body: cst.CSTNode, ctx: FileContext) -> bool:
    """``t.cancel()`` earlier in the function (or ``self.t.cancel()`` in another method of the class),
    then ``await t`` in this body: the CancelledError is the cancelled task's outcome, and swallowing
    it is the idiom. Any other await in the body could receive a cancellation meant for this task,
    so it must be the only kind of await there."""
    return suspension.awaits_only_cancelled_tasks(body, _function_or_module(ctx), _method_class(ctx))


def _can_receive_cancellation(body: cst.CSTNode, ctx: FileContext) -> bool:
    """Can a cancellation of the running coroutine arrive in ``body``: does it suspend, other than
    by awaiting a task already done (which hands back its outcome without suspending: also one
    ``asyncio.wait_for`` has just timed out on) or a project coroutine that never suspends (nor
    what it awaits: ProjectIndex.never_suspending) or that no cancellation comes out of
    (FunctionSummary.keeps_its_cancellation)?"""
    points = suspension.suspension_points(body)
    if not points or all(_no_cancellation_from(point, ctx) for point in points):
        return False
    if awaits_only_timed_out_futures(body, ctx.ancestors, ctx.resolve_call, ctx.resolve):
        return False
    return not awaits_only_done_futures(body, ctx.function_node, _method_class(ctx), ctx.resolve_call, ctx.ancestors)


def _no_cancellation_from(point: cst.CSTNode, ctx: FileContext) -> bool:
    """``await f()`` or ``async for _ in f()`` of a project async function that never suspends
    (ProjectIndex.never_suspending), or ``await f()`` of a project coroutine whose every suspension
    point is in a ``try`` that takes CancelledError and never raises (``try: await
    asyncio.shield(...) except CancelledError: pass``: FunctionSummary.keeps_its_cancellation): a
    cancellation there ends in its handler, and the await hands back normally."""
    call = point.expression if isinstance(point, cst.Await) else point.iter if isinstance(point, cst.For) else None
    if not isinstance(call, cst.Call):
        return False
    function = ctx.index.resolve_function(ctx.resolve_call(call))
    if function is None:
        return False
    if function in ctx.index.never_suspending:
        return True
    summary = ctx.index.function(function)
    return isinstance(point, cst.Await) and summary is not None and summary.keeps_its_cancellation


def _method_class(ctx: FileContext) -> Optional[cst.ClassDef]:
    """The class whose method we are directly in, if any."""
    function = ctx.function_node
    if function is None:
        return None
    found = None
    for node in reversed(ctx.ancestors[:-1]):
        if node is function:
            found = True
            continue
        if found and not isinstance(node, cst.IndentedBlock):
            return node if isinstance(node, cst.ClassDef) else None
    return None


def _is_critical(handler, ctx: FileContext) -> bool:
    """Does an except clause catch a stop: bare, BaseException, or a cancellation exception?"""
    if handler.type is None:
        return True
    names = _caught_names(handler, ctx)
    return any(n in knowledge.BASE_EXCEPTION for n in names) or any(_cancellation_kind(n) for n in names)


def _catches_everything(handler, ctx: FileContext) -> bool:
    return handler.type is None or any(n in knowledge.BASE_EXCEPTION for n in _caught_names(handler, ctx))


def _bound_name(handler) -> Optional[str]:
    if handler.name is not None and isinstance(handler.name.name, cst.Name):
        return handler.name.name.value
    return None


_BUILTIN_EXCEPTIONS = frozenset(
    name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)
)
_ERROR_WORDS = re.compile(r"(Error|Exception)$")


def _ordinary_exception(name: Optional[str], ctx: FileContext) -> bool:
    """Is ``name`` (canonical) an exception class that is not a stop: a builtin one, a library class
    named ``...Error`` / ``...Exception``, or a project class deriving from one of these?
    Unknown names are not (when the model cannot tell, the rule stays silent)."""
    if not name or _cancellation_kind(name):
        return False
    if name.rsplit(".", 1)[-1] == "TimeoutError":
        return False  # a timeout turning its own cancellation into TimeoutError, as asyncio.timeout() does
    if name in _BUILTIN_EXCEPTIONS:
        return name not in ("KeyboardInterrupt", "SystemExit", "GeneratorExit")
    if name in ctx.index.classes:
        bases = ctx.index.class_bases(name)
        if any(_cancellation_kind(b) or b in ("KeyboardInterrupt", "SystemExit") for b in bases):
            return False
        return any(b in _BUILTIN_EXCEPTIONS or (b not in ctx.index.classes and _ERROR_WORDS.search(b)) for b in bases if b)
    if ctx.index.function(name) is not None:
        return False  # a factory: what it returns is not known
    return bool(_ERROR_WORDS.search(name.rsplit(".", 1)[-1]))


def _raise_classifier(handler, ctx: FileContext):
    """How a ``raise`` inside ``handler`` ends: RAISE when it re-raises the stop in flight (bare
    ``raise``, ``raise exc`` of a name bound by a clause that catches stops, a cancellation raised
    anew, or anything not known), CONVERT when another exception replaces it: ``raise ValueError()
    (from exc)``, ``raise g`` of a name bound by an ``except ValueError as g``, ``raise e`` of an
    outer ordinary exception. Callers up the stack catch that with ``except Exception`` and go on."""
    own = _bound_name(handler)

    def classify(node: cst.Raise, nested: tuple) -> str:
        exc = node.exc
        if exc is None:
            return RAISE
        if isinstance(exc, cst.Name):
            for inner in reversed(nested):
                if _bound_name(inner) == exc.value:
                    return RAISE if _is_critical(inner, ctx) else CONVERT
            if exc.value == own:
                return RAISE
            for outer in reversed(ctx.ancestors[:-1]):
                if isinstance(outer, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                    break
                if isinstance(outer, (cst.ExceptHandler, cst.ExceptStarHandler)) and outer is not handler and _bound_name(outer) == exc.value:
                    return RAISE if _is_critical(outer, ctx) else CONVERT
        target = exc.func if isinstance(exc, cst.Call) else exc
        if isinstance(target, (cst.Name, cst.Attribute)) and _ordinary_exception(ctx.resolve(target), ctx):
            return CONVERT
        return RAISE

    return classify


def _handler_exits(handler, ctx: FileContext) -> set[str]:
    return exits(handler.body, ctx.is_exit_call, _raise_classifier(handler, ctx))


def _yields(body: cst.CSTNode) -> Optional[cst.CSTNode]:
    """The first ``yield`` in a handler's body (nested functions excluded)."""
    found = find_all(body, (cst.Yield,))
    return found[0] if found else None


def _unreachable(node, ctx: FileContext) -> bool:
    """An earlier clause of the same try catches everything (bare or BaseException): this one never runs."""
    for handler in ctx.parent().handlers:
        if handler is node:
            return False
        if _catches_everything(handler, ctx):
            return True
    return False


def _cancellation_taken_earlier(node, ctx: FileContext) -> bool:
    """An earlier clause of the same try names a library's cancellation (asyncio, trio, anyio): it
    takes the cancellation first (BG101 reports it if it swallows it)."""
    for handler in ctx.parent().handlers:
        if handler is node:
            return False
        kinds = {k for k in map(_cancellation_kind, _caught_names(handler, ctx)) if k}
        if kinds - knowledge.PROCESS_INTERRUPTS - {knowledge.FUTURE_CANCELLATION}:
            return True
    return False


def _stops_that_can_arrive(kinds: list, try_node, ctx: FileContext) -> list:
    """The caught stop kinds that can reach this ``try`` body (see bgcheck.model.execution): a library's
    cancellation only at a suspension point of a coroutine; KeyboardInterrupt and SystemExit not in
    code that runs only in worker threads; never a library's cancellation in a plain function (only
    code it calls raises one there, as that work's outcome), unless its ``try`` body yields (a
    generator run as a coroutine); concurrent.futures' only around a read of a future's outcome."""
    context = ctx.thread_context
    library = lambda k: k not in knowledge.PROCESS_INTERRUPTS and k != knowledge.FUTURE_CANCELLATION  # noqa: E731
    result = []
    for kind in kinds:
        if library(kind) and context == execution.COROUTINE and not _can_receive_cancellation(try_node.body, ctx):
            continue
        if library(kind) and not ctx.in_coroutine and _yields(try_node.body) is None:
            continue  # plain code: only code it calls raises one, as that work's outcome; nothing is suspended here
        if kind in knowledge.PROCESS_INTERRUPTS and context == execution.WORKER_THREAD:
            continue
        if kind == knowledge.FUTURE_CANCELLATION and not _reads_future_outcome(try_node.body):
            continue  # not a stop request anywhere, and no future's outcome read here to count as a result
        result.append(kind)
    return result


def _system_exit_can_arrive(body: cst.CSTNode, ctx: FileContext) -> bool:
    """Can SystemExit reach this ``try`` body outside job code? Python raises it only for
    ``sys.exit()`` and its kin (knowledge.SYSTEM_EXIT_RAISERS): a call of one in the body, a project
    function it calls that can make one, or a signal handler of the project that can (how a SIGTERM
    handler stops a program: bgcheck.model.execution). Otherwise what the clause catches is foreign
    code's own ``sys.exit()`` (a plugin that tried to exit), not the program's stop."""
    model = ctx.index.execution
    if ctx.in_job_code or model is None or model.signals_raise_exit:
        return True
    called: list[str] = []
    direct = False

    class _Finder(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> bool:
            return False

        def visit_Lambda(self, node) -> bool:
            return False

        def visit_Call(self, node: cst.Call) -> None:
            nonlocal direct
            target = ctx.resolve_call(node)
            if target in knowledge.SYSTEM_EXIT_RAISERS:
                direct = True
            function = ctx.index.resolve_function(target) if target else None
            if function:
                called.append(function)

    walk(body, _Finder())
    return direct or model.system_exit_can_arrive(called)


def _waits_at_a_prompt(body: cst.CSTNode, ctx: FileContext) -> bool:
    """Does ``body`` ask the user at a terminal prompt (``input()``, prompt_toolkit's
    ``prompt_async()``, rich's ``Prompt.ask()``: knowledge.INTERACTIVE_INPUT_CALLS), itself or
    through the project's own input helper (ProjectIndex.prompting_functions)? Ctrl-C while an
    interactive program waits there is the user cancelling that input. A prompt handed to a call
    as a lambda or a function (``await loop.run_in_executor(None, lambda: input("> "))``,
    ``asyncio.to_thread(input, "> ")``) is waited at there too."""
    for call in find_all(body, (cst.Call,)):
        if _is_a_prompt(ctx.resolve_call(call), ctx):
            return True
        for argument in call.args:
            value = argument.value
            if isinstance(value, cst.Lambda) and any(_is_a_prompt(ctx.resolve_call(inner), ctx) for inner in find_all(value.body, (cst.Call,))):
                return True
            if isinstance(value, (cst.Name, cst.Attribute)) and _is_a_prompt(ctx.resolve(value), ctx):
                return True
    return False


def _is_a_prompt(target: Optional[str], ctx: FileContext) -> bool:
    return target in knowledge.INTERACTIVE_INPUT_CALLS or ctx.index.resolve_function(target) in ctx.index.prompting_functions


def _interrupts_a_turn_of_a_prompt_loop(handler, ctx: FileContext, kinds: list) -> bool:
    """The handler of Ctrl-C or of a coroutine's cancellation is in a loop that waits at a terminal
    prompt (``while True: line = await session.prompt_async(); ...; try: await turn(line) except
    CancelledError: print("interrupted")``): a REPL, and the turn's work stops with the interrupt
    (_stops_the_turns_tasks). Its user is who interrupts it: Ctrl-C (which asyncio.run() turns into
    a cancel of the main task), or the program's own key or signal handler cancelling the turn.
    Back at the prompt is where the user asked to be, as in Python's own REPL, and where the
    program ends when told to."""
    if not set(kinds) <= _USER_INTERRUPTS or ("asyncio.CancelledError" in kinds and not ctx.in_coroutine):
        return False
    loop = _innermost_loop(ctx)
    return loop is not None and _waits_at_a_prompt(loop.body, ctx) and _stops_the_turns_tasks(handler, loop, ctx)


def _stops_the_turns_tasks(handler, loop, ctx: FileContext) -> bool:
    """Does every task the loop's body makes before the handler (``task = asyncio.create_task(
    agent.run())``) and the ``try`` uses stop with the interrupt? The handler cancels it, it is handed
    to a holder that can (``interrupts.register(task)``: _tasks_handed_over), or the ``try`` awaits nothing
    else (a cancel of the awaiting task cancels the task it awaits). A turn polled with
    ``await asyncio.sleep(0.1)`` until done, and left running by a handler that only prints, goes
    on after the user asked it to stop."""
    try_node = ctx.parent()
    start = ctx.position(handler).start.line
    made = {
        assign.targets[0].target.value
        for assign in find_all(loop.body, (cst.Assign,))
        if len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name)
        and ctx.position(assign).start.line < start and _makes_a_task(assign.value, ctx)
    } & {name.value for name in find_all(try_node.body, (cst.Name,))}
    cancelled = suspension.cancelled_names(handler.body)
    points = suspension.suspension_points(try_node.body)
    named = [point.expression.value for point in points if isinstance(point, cst.Await) and isinstance(point.expression, cst.Name)]
    awaited_alone = set(named) if len(named) == len(points) and len(set(named)) == 1 else set()
    handed = _tasks_handed_over(ctx) if made else set()
    return all(name in cancelled or name in handed or name in awaited_alone for name in made)


def _makes_a_task(value, ctx: FileContext) -> bool:
    """``asyncio.create_task(...)``, ``asyncio.ensure_future(...)``, or ``create_task(...)`` of a
    loop or a task group (as ast_flow's reading of the same)."""
    if not isinstance(value, cst.Call):
        return False
    if isinstance(value.func, cst.Attribute) and value.func.attr.value == knowledge.TASK_MAKING_METHOD:
        return True
    return ctx.resolve_call(value) in knowledge.TASK_MAKING_CALLS


_USER_INTERRUPTS = frozenset({"asyncio.CancelledError", "KeyboardInterrupt"})


def _reads_future_outcome(body: cst.CSTNode) -> bool:
    """Does ``body`` read a future's outcome (``fut.result()``, ``fut.exception()``), which raises
    CancelledError when that future was cancelled?"""
    found = False

    class _Finder(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            if isinstance(node.func, cst.Attribute) and node.func.attr.value in knowledge.FUTURE_OUTCOME_READS:
                found = True

    walk(body, _Finder())
    return found


def _done_callback_handles_cancel(ctx: FileContext, try_body: cst.CSTNode, handler_exits: set[str]) -> bool:
    """A done-callback's own reading of its future: the method is used only as
    ``fut.add_done_callback(self.method)``, the ``try`` reads the outcome of the future it is given
    (``future.result()``), and the callback ends with the handler. The future's cancellation is then
    the outcome the callback is there to handle (``mark_job_as_canceled(...)``), and nothing after
    it counts the work as done: the future's own callers still see it cancelled."""
    class_node = _method_class(ctx)
    function = ctx.function_node
    if class_node is None or not isinstance(function, cst.FunctionDef):
        return False
    parameter = done_callback_methods(class_node).get(function.name.value)
    if parameter is None or not _handler_ends_the_function(ctx, handler_exits):
        return False
    read = False

    class _Finder(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            nonlocal read
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in knowledge.FUTURE_OUTCOME_READS and isinstance(func.value, cst.Name):
                read = read or func.value.value == parameter

    walk(try_body, _Finder())
    return read


def _counts_future_as_result(kinds: list, handler_exits: set[str]) -> list:
    """``kinds`` without concurrent.futures' CancelledError when the handler only raises: turning a
    cancelled future's outcome into an error (or re-raising it) does not count the cancelled work
    as a result, and that exception is never a stop request to this code (see knowledge)."""
    if handler_exits <= {RAISE, CONVERT}:
        return [k for k in kinds if k != knowledge.FUTURE_CANCELLATION]
    return kinds


def _is_stop_state_test(test: cst.BaseExpression) -> bool:
    """``stopper.done()``, ``stop.is_set()``, ``fut.cancelled()``, alone or ``and``-ed with other
    tests (``stopper is not None and stopper.done()``): true only once that event or future says so."""
    if isinstance(test, cst.BooleanOperation):
        if not isinstance(test.operator, cst.And):
            return False
        return _is_stop_state_test(test.left) or _is_stop_state_test(test.right)
    return (
        isinstance(test, cst.Call)
        and not test.args
        and isinstance(test.func, cst.Attribute)
        and test.func.attr.value in knowledge.STOP_STATE_TESTS
    )


def _recorded_failure_test(test: cst.BaseExpression) -> Optional[tuple[str, bool]]:
    """``failure is None`` -> ("failure", False); ``self.error is not None`` -> ("self.error", True):
    the name tested and whether the test is true when a failure is recorded in it."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return None
    name = dotted_name(test.left)
    target = test.comparisons[0]
    if name is None:
        return None
    if not is_none(target.comparator):
        return None
    if isinstance(target.operator, cst.Is):
        return name, False
    if isinstance(target.operator, cst.IsNot):
        return name, True
    return None


def _raises_from(block, name: str) -> bool:
    """Is every ``raise`` in ``block`` a ``raise ... from name``?"""
    raises = find_all(block, (cst.Raise,))
    return bool(raises) and all(
        isinstance(r.cause, cst.From) and dotted_name(r.cause.item) == name for r in raises
    )


def _reports_a_recorded_failure(handler, ctx: FileContext) -> bool:
    """``except CancelledError: if failure is None: raise`` / ``raise RuntimeError(...) from failure``:
    the stop is re-raised unless the work had already failed (an exception recorded before, not the
    one caught here), and then that failure is what it reports. The work ends either way."""
    statements = list(handler.body.body)
    if not statements or not isinstance(statements[0], cst.If) or statements[0].orelse is not None and not isinstance(statements[0].orelse, cst.Else):
        return False
    branch = statements[0]
    tested = _recorded_failure_test(branch.test)
    if tested is None or tested[0] == _bound_name(handler):
        return False
    name, when_failed = tested
    other = list(branch.orelse.body.body) if branch.orelse is not None else []
    other += statements[1:]
    failed, clean = (list(branch.body.body), other) if when_failed else (other, list(branch.body.body))
    classify = _raise_classifier(handler, ctx)
    return (
        exits(clean, ctx.is_exit_call, classify) <= {RAISE}
        and exits(failed, ctx.is_exit_call, classify) <= {RAISE, CONVERT}
        and all(_raises_from(statement, name) for statement in failed if find_all(statement, (cst.Raise,)))
    )


def _tests_own_cancelling(test: cst.BaseExpression, ctx: FileContext, bound: frozenset = frozenset()) -> bool:
    """``asyncio.current_task().cancelling()`` (also compared ``> 0``), or ``(task :=
    asyncio.current_task()) and task.cancelling()``, alone or ``and``-ed with other tests, or a
    call of a project function that returns such a test (FunctionSummary.tests_own_cancelling:
    ``if task_is_cancelling(): raise``): true only while the running task is being cancelled.
    Either side of an ``or`` may be it (``if not self._running or task_is_cancelling(): raise``
    raises whenever it is). ``bound``: names the handler assigned ``asyncio.current_task()`` to first."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
        return _tests_own_cancelling(test.left, ctx, bound) or _tests_own_cancelling(test.right, ctx, bound)
    operands, bound = [], set(bound)
    pending = [test]
    while pending:
        node = pending.pop()
        if isinstance(node, cst.BooleanOperation):
            if not isinstance(node.operator, cst.And):
                return False
            pending += [node.left, node.right]
        else:
            operands.append(node)
    for node in operands:
        if isinstance(node, cst.NamedExpr) and isinstance(node.value, cst.Call) and ctx.resolve_call(node.value) in knowledge.CURRENT_TASK_CALLS:
            bound.add(dotted_name(node.target))
    for node in operands:
        if (
            isinstance(node, cst.Comparison) and len(node.comparisons) == 1 and isinstance(node.comparisons[0].operator, cst.GreaterThan)
            and isinstance(node.comparisons[0].comparator, cst.Integer) and node.comparisons[0].comparator.value == "0"
        ):
            node = node.left  # ``task.cancelling() > 0``
        if not isinstance(node, cst.Call) or node.args:
            continue
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == knowledge.CANCELLING_METHOD:
            receiver = node.func.value
            if isinstance(receiver, cst.Call) and ctx.resolve_call(receiver) in knowledge.CURRENT_TASK_CALLS:
                return True
            if dotted_name(receiver) in bound:
                return True
        helper = ctx.index.resolve_function(ctx.resolve_call(node))
        summary = ctx.index.function(helper) if helper else None
        if summary is not None and summary.tests_own_cancelling:
            return True
    return False


def _reraises_own_cancellation(handler, ctx: FileContext) -> bool:
    """``except CancelledError: if asyncio.current_task().cancelling(): raise`` first thing: every
    cancellation of the running task goes on; what is swallowed after it is an awaited future's
    own cancellation (Python 3.11's idiom for telling them apart)."""
    statements = list(handler.body.body)
    bound = set()
    # ``task = asyncio.current_task()`` then ``if task is not None and task.cancelling(): raise``;
    # before it, plain statements that do not wait (``self._set_status("failed")``) change nothing
    while statements and ((name := _current_task_assignment(statements[0], ctx)) or _plain_statement(statements[0])):
        if name:
            bound.add(name)
        statements.pop(0)
    if not statements or not isinstance(statements[0], cst.If):
        return False
    first = statements[0]
    return _tests_own_cancelling(first.test, ctx, frozenset(bound)) and always_raises(first.body, ctx.is_exit_call, _raise_classifier(handler, ctx))


def _plain_statement(statement) -> bool:
    """A line of expressions and assignments that neither waits nor leaves (no ``await``,
    ``yield``, ``return``, ``break``, ``continue`` or ``raise``)."""
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and all(isinstance(small, (cst.Expr, cst.Assign, cst.AugAssign, cst.AnnAssign)) for small in statement.body)
        and not find_all(statement, (cst.Await, cst.Yield))
    )


def _reraises_unless_the_awaited_task_was_cancelled(handler, ctx: FileContext) -> bool:
    """``try: await asyncio.shield(t) except CancelledError: if not t.cancelled(): raise`` first
    thing: the running task's own cancellation leaves ``t`` running, so it is re-raised; what is
    swallowed is ``t``'s own cancellation, handed back by the await (``t`` awaited plainly, through
    ``asyncio.shield()`` or ``asyncio.wait_for()``)."""
    statements = list(handler.body.body)
    if not statements or not isinstance(statements[0], cst.If):
        return False
    first = statements[0]
    test = first.test
    if not (isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) and isinstance(test.expression, cst.Call)):
        return False
    call = test.expression
    if call.args or not isinstance(call.func, cst.Attribute) or call.func.attr.value != "cancelled":
        return False
    if not always_raises(first.body, ctx.is_exit_call, _raise_classifier(handler, ctx)):
        return False
    task = call.func.value
    awaited = []
    for node in find_all(ctx.parent().body, (cst.Await,)):
        value = node.expression
        if isinstance(value, cst.Call) and ctx.resolve_call(value) in knowledge.TASK_PASS_THROUGH_WAITS and value.args:
            value = value.args[0].value
        awaited.append(value)
    return bool(awaited) and all(value.deep_equals(task) for value in awaited)


def _current_task_assignment(statement, ctx: FileContext) -> Optional[str]:
    """The name a statement ``name = asyncio.current_task()`` binds, else None."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return None
    smalls = [small for small in statement.body if not is_string_statement(small)]  # a string does nothing
    if len(smalls) != 1:
        return None
    small = smalls[0]
    if not isinstance(small, cst.Assign) or len(small.targets) != 1 or not isinstance(small.targets[0].target, cst.Name):
        return None
    value = small.value
    if isinstance(value, cst.Call) and ctx.resolve_call(value) in knowledge.CURRENT_TASK_CALLS:
        return small.targets[0].target.value
    return None


def _uncancels_the_running_task(handler, ctx: FileContext) -> bool:
    """The handler calls ``uncancel()`` on the running task (``asyncio.current_task().uncancel()``,
    or through a name the function binds to ``asyncio.current_task()``): asyncio's way for code that
    suppresses a cancellation on purpose to say so, which keeps ``cancelling()``, TaskGroup and
    ``asyncio.timeout()`` right (a REPL that turns Ctrl-C into a cancel of the current turn)."""
    return _calls_on_the_running_task(handler, ctx, knowledge.UNCANCEL_METHOD)


def _recancels_the_running_task(handler, ctx: FileContext) -> bool:
    """The handler cancels the running task again (``asyncio.current_task().cancel()``, or through a
    name bound to it): the stop is not lost but moved, and arrives at the task's next suspension
    point (a generator's consumer that redelivers an interrupt into the next ``__anext__``)."""
    return _calls_on_the_running_task(handler, ctx, knowledge.CANCEL_METHOD)


def _calls_on_the_running_task(handler, ctx: FileContext, method: str) -> bool:
    """Does the handler call ``method()`` (no arguments) on ``asyncio.current_task()`` or on a name
    the function binds to it?"""
    tasks = None
    for call in find_all(handler.body, (cst.Call,)):
        func = call.func
        if not isinstance(func, cst.Attribute) or func.attr.value != method or call.args:
            continue
        receiver = func.value
        if isinstance(receiver, cst.Call) and ctx.resolve_call(receiver) in knowledge.CURRENT_TASK_CALLS:
            return True
        if isinstance(receiver, cst.Name):
            if tasks is None:
                tasks = {
                    name for line in find_all(_function_or_module(ctx), (cst.SimpleStatementLine,))
                    if (name := _current_task_assignment(line, ctx))
                }
            if receiver.value in tasks:
                return True
    return False


def _swallows_only_once_stopped(handler, ctx: FileContext) -> bool:
    """``except CancelledError: if stopper.done(): return`` then ``raise`` on every other path: the
    handler tells the stop its event or future asked for (which it honours by returning) from every
    other cancellation, which it re-raises. Statements before the test must only fall through."""
    statements = list(handler.body.body)
    classify = _raise_classifier(handler, ctx)
    for position, statement in enumerate(statements):
        if isinstance(statement, cst.If):
            break
        if exits([statement], ctx.is_exit_call, classify) != {FALL}:
            return False
    else:
        return False
    if not _is_stop_state_test(statement.test):
        return False
    if not exits(statement.body, ctx.is_exit_call, classify) <= {RETURN, RAISE}:
        return False
    rest = statements[position + 1 :]
    if isinstance(statement.orelse, cst.Else):
        rest = list(statement.orelse.body.body) + rest
    elif statement.orelse is not None:
        rest = [statement.orelse] + rest
    return exits(rest, ctx.is_exit_call, classify) <= {RAISE}


_LOGGING_CALLS = frozenset(
    {"print", "log", "debug", "info", "warning", "warn", "error", "exception", "critical", "format", "str", "repr", "format_exc"}
)


def _flags_set_by(handler) -> set[str]:
    """Local names the handler assigns (``pending_cancel = True``, ``pending = exc``), outside
    nested functions: where it may keep the stop for later."""
    names = set()
    for assign in find_all(handler.body, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
        targets = [t.target for t in assign.targets] if isinstance(assign, cst.Assign) else [assign.target]
        names.update(t.value for t in targets if isinstance(t, cst.Name))
    return names


def _tests_a_flag(test: cst.BaseExpression, flags: set[str]) -> bool:
    """``flag``, ``flag is not None`` or either ``and``-ed with other tests: true only once the flag
    was set."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _tests_a_flag(test.left, flags) or _tests_a_flag(test.right, flags)
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        if isinstance(target.operator, cst.IsNot) and is_none(target.comparator):
            test = test.left
    return isinstance(test, cst.Name) and test.value in flags


def _raises_the_stop(block, flags: set[str], ctx: FileContext) -> bool:
    """Every way out of ``block`` raises, and it raises the stop: a cancellation class anew
    (``raise asyncio.CancelledError()``) or the kept exception (``raise pending_cancel``)."""
    if not always_raises(block, ctx.is_exit_call):
        return False
    for node in find_all(block, (cst.Raise,)):
        exc = node.exc
        target = exc.func if isinstance(exc, cst.Call) else exc
        if isinstance(target, cst.Name) and target.value in flags:
            continue
        if target is None or not _cancellation_kind(ctx.resolve(target)):
            return False
    return True


def _defers_the_reraise(handler, ctx: FileContext, handler_exits: set[str]) -> bool:
    """The deferred re-raise: the handler keeps the stop in a local flag (``pending_cancel =
    True``) and finishes its cleanup, and the function raises the stop once the flag is set, after
    the ``try`` statement (``if pending_cancel: raise asyncio.CancelledError()``) or in a ``finally:``
    around it (which also overrides a ``return`` in the handler). The stop is held off until the
    cleanup is done, not lost. A handler nested in one that defers (a second cancel during the same
    cleanup) defers with it."""
    function = ctx.function_node
    if function is None or not isinstance(function, cst.FunctionDef):
        return False
    around = []  # the handlers and the ``finally:`` blocks the handler is in, up to its function
    for node in reversed(ctx.ancestors):
        if node is function:
            break
        if isinstance(node, (cst.ExceptHandler, cst.ExceptStarHandler)):
            around.append(node)
        elif isinstance(node, (cst.Try, cst.TryStar)) and node.finalbody is not None:
            around.append(node.finalbody)
    finally_ifs = {id(test) for block in around if isinstance(block, cst.Finally) for test in find_all(block, (cst.If,))}
    returns = RETURN in handler_exits
    tests = find_all(function.body, (cst.If,))
    for candidate in (block for block in around if not isinstance(block, cst.Finally)):
        flags = _flags_set_by(candidate)
        if not flags:
            continue
        end = ctx.position(candidate).end.line
        for test in tests:
            if not _tests_a_flag(test.test, flags) or not _raises_the_stop(test.body, flags, ctx):
                continue
            if id(test) in finally_ifs or (not returns and ctx.position(test).start.line > end):
                return True
    return False


def _innermost_loop(ctx: FileContext):
    """The loop around the current node in its function, if any."""
    for node in reversed(ctx.ancestors[:-1]):
        if isinstance(node, (cst.For, cst.While)):
            return node
        if isinstance(node, (cst.FunctionDef, cst.Lambda)):
            return None
    return None


def _in_a_sized_for(ctx: FileContext) -> bool:
    """The loop around the handler is a ``for`` over items already in memory (a name, an attribute,
    a literal, ``d.values()``, ``range(...)``, ``sorted(...)``: _is_sized_for): it ends when they run
    out, so the task does stop, late; whether that loses the stop is BG105's to judge. A ``for`` over
    what another call returns, or over a stream, and ``async for``, may never end; nor may a loop
    around the ``for`` (``while True:`` around ``for conn in self.conns:``)."""
    loops = []
    for node in reversed(ctx.ancestors[:-1]):
        if isinstance(node, (cst.FunctionDef, cst.Lambda)):
            break
        if isinstance(node, (cst.For, cst.While)):
            loops.append(node)
    return bool(loops) and all(_is_sized_for(loop, ctx) for loop in loops)


def _is_sized_for(loop, ctx: FileContext) -> bool:
    """A ``for`` over items in memory, as BG301 decides it for the loops that feed a queue
    (ProjectIndex.is_stream_loop): a name, an attribute, a literal, ``range(...)``, ``d.values()``..."""
    if not isinstance(loop, cst.For) or loop.asynchronous is not None:
        return False
    return not ctx.index.is_stream_loop(("for", ctx.to_ir(loop.iter)))


def _loop_stops_on_its_cancellers_flag(ctx: FileContext) -> bool:
    """The handler is in ``while not self.should_stop:``, and the method of the class that sets
    that flag cancels the work after setting it (``stop()``: ``self.should_stop = True`` then
    ``self.consume_task.cancel()``): once the handler is done the loop tests its flag and ends.
    The cancel only cut the current wait short."""
    loop = _innermost_loop(ctx)
    return isinstance(loop, cst.While) and (loop_flag_set_elsewhere(loop, ctx, then_cancels=True) or closure_flag_set_before_cancel(loop, ctx))


def _awaits_a_shield(body, ctx: FileContext) -> bool:
    """Does ``body`` await ``asyncio.shield(...)``: a wait for work that a cancellation does not stop?"""
    return any(
        isinstance(node.expression, cst.Call) and ctx.resolve_call(node.expression) in knowledge.SHIELD_CALLS
        for node in find_all(body, (cst.Await,))
    )


def _waits_until_its_tasks_settle(body, ctx: FileContext) -> bool:
    """The loop is ``while pending:`` and ``body`` rebinds ``pending`` to what ``asyncio.wait(pending)``
    leaves pending (``_, pending = await asyncio.wait(pending)``): asyncio.wait() cancels none of the
    tasks it waits for, so the loop waits for tasks already asked to stop to settle, through every
    cancel of its own, and ends when they have. The shield-until-cleanup idiom, as ``_awaits_a_shield``."""
    loop = _innermost_loop(ctx)
    if not isinstance(loop, cst.While) or not isinstance(loop.test, cst.Name):
        return False
    pending = loop.test.value
    for assign in find_all(body, (cst.Assign,)):
        waited = assign.value.expression if isinstance(assign.value, cst.Await) else None
        if not (isinstance(waited, cst.Call) and ctx.resolve_call(waited) in knowledge.DONE_SET_WAITS and waited.args):
            continue
        first = waited.args[0].value
        target = assign.targets[0].target if len(assign.targets) == 1 else None
        if (isinstance(first, cst.Name) and first.value == pending and isinstance(target, (cst.Tuple, cst.List))
                and len(target.elements) == 2 and isinstance(target.elements[1].value, cst.Name)
                and target.elements[1].value.value == pending):
            return True
    return False


def _goes_round_again(kinds: list, handler, body, handler_exits: set, ctx: FileContext) -> bool:
    """BG101's sure case, the rule's example: a task's own cancellation (asyncio, trio, anyio)
    caught in a coroutine, inside a loop of that coroutine, by a handler that falls through or
    ``continue``s, so the loop goes round again and the task keeps working after it was asked to
    stop. A handler that sets the flag its ``while`` tests (``shutdown = True`` in ``while not
    shutdown:``) ends the loop instead. A loop that awaits ``asyncio.shield()`` (waiting for cleanup
    through repeated cancels, or ``asyncio.wait()`` until its tasks settle) is not the work going
    on, nor is a handler that leaves once the work's stop event or flag is set (``handler``; None
    for ``contextlib.suppress``). Nor, as a matter of whose stop it is, a ``try`` that awaits
    another task (whose own cancellation the handler may be there for), or a handler that records
    the stop in a flag or re-raises it in some cases (the project's own protocol decides what comes
    next). Every other swallowed stop is BG105's: whether work goes on there depends on the callers,
    the program's stop protocol, or which signal arrives."""
    return (
        ctx.in_coroutine
        and all(kind not in knowledge.PROCESS_INTERRUPTS and kind != knowledge.FUTURE_CANCELLATION for kind in kinds)
        and _goes_on_in_its_loop(ctx, handler_exits if handler is None else _with_its_loop_ended(handler, ctx, handler_exits))
        and not _in_a_sized_for(ctx)
        and not _awaits_a_shield(body, ctx)
        and not _waits_until_its_tasks_settle(body, ctx)
        and not _may_catch_another_tasks_cancellation(body, ctx)
        and not (handler is not None and (_leaves_once_stopped(handler, ctx) or _keeps_or_sorts_the_stop(handler, ctx)))
    )


def _may_catch_another_tasks_cancellation(body, ctx: FileContext) -> bool:
    """Does ``body`` await a task or future made elsewhere (``await self._turn``, ``await
    asyncio.wait_for(task, 5)``, ``await asyncio.shield(fut)``, ``await asyncio.gather(*workers)``),
    or a project coroutine that awaits a task it made and handed to someone else (``await
    self.run_task(...)``, FunctionSummary.awaits_a_handed_task)? The CancelledError caught may then
    be that task's, cancelled by whoever holds it, and not the running task's own: whether a stop
    is lost depends on who cancels what, BG105's to judge. Only a coroutine called right there
    (``await ws.recv()``, ``await asyncio.sleep(5)``) raises the running task's own cancellation
    and nothing else."""
    private = None
    for point in suspension.suspension_points(body):
        awaited = point.expression if isinstance(point, cst.Await) else None
        if awaited is None:
            continue
        waited = [awaited]
        while waited:
            value = waited.pop()
            if isinstance(value, cst.Name):
                private = _private_tasks(ctx) if private is None else private
                if value.value in private:
                    continue  # only the running task's cancel reaches a task no one else holds
            if not isinstance(value, cst.Call):
                return True  # a task, a future, an awaitable held in a name
            target = ctx.resolve_call(value)
            if target in knowledge.TASK_PASS_THROUGH_WAITS:
                waited.extend(arg.value for arg in value.args[:1])
            elif target in knowledge.GATHER:
                waited.extend(arg.value for arg in value.args if arg.keyword is None)
            else:
                function = ctx.index.resolve_function(target)
                summary = ctx.index.function(function) if function else None
                if summary is not None and summary.awaits_a_handed_task and not ctx.index.overridden(summary):
                    return True
    return False


def _private_tasks(ctx: FileContext) -> set[str]:
    """The names the current function binds only to a task it makes itself (``task =
    asyncio.create_task(self.fetch())``, or the future of ``loop.run_in_executor(...)``; a first
    ``task = None`` aside) and hands to no one (_tasks_handed_over): nothing else can cancel such a
    task, so ``await task`` (or ``await asyncio.shield(task)``) raises CancelledError only when the
    running task is cancelled."""
    function = ctx.function_node
    if function is None:
        return set()
    made: set[str] = set()
    other: set[str] = set()
    for node in find_all(function.body, (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr, cst.AsName)):
        targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.name if isinstance(node, cst.AsName) else node.target]
        value = getattr(node, "value", None) if isinstance(node, (cst.Assign, cst.AnnAssign)) else None
        if isinstance(node, cst.AnnAssign) and value is None:
            continue  # ``task: asyncio.Task`` binds nothing
        if len(targets) == 1 and isinstance(targets[0], cst.Name) and value is not None:
            if is_none(value):
                continue  # ``task: Future | None = None`` before the task is made
            private = _makes_a_task(value, ctx) or _makes_an_asyncio_future(value, ctx)
            (made if private else other).add(targets[0].value)
        else:
            other.update(name.value for target in targets for name in find_all(target, (cst.Name,)))
    return made - other - _tasks_handed_over(ctx)


def _makes_an_asyncio_future(value, ctx: FileContext) -> bool:
    """A call the model knows returns an asyncio future (knowledge.FACTORY_INSTANCES, through the
    index's canonical names: ``loop.run_in_executor(...)`` of any asyncio loop): only its holder
    can cancel it."""
    target = ctx.resolve_call(value) if isinstance(value, cst.Call) else None
    return target is not None and ctx.index.canonical(f"{target}()") == "asyncio.Future()"


def _keeps_or_sorts_the_stop(handler, ctx: FileContext) -> bool:
    """Does the handler re-raise the stop in some cases, on a test bgcheck cannot read (``if
    self._fallback_requested: continue`` then ``raise``; ``if runner.should_exit: raise``), or
    record it in a flag that its loop reads to leave or skip (``_error = True``, then ``if _error:
    break`` further on) or to choose what it waits for next? The project's own protocol then
    decides what the stop does next, where the test is made or the flag read: BG105's to judge.
    BG101 keeps the handler that logs, sleeps or passes and lets the loop go round, and one whose
    test is a project function that does not look at the running task (``if task_was_cancelled():
    raise``), or whose flag nothing reads to leave."""
    for branch in find_all(handler.body, (cst.If,)):
        if find_all(branch, (cst.Raise,)) and not _is_project_test(branch.test, ctx):
            return True
    flags = {name for node in find_all(handler.body, (cst.Assign,)) for name, _value in _flag_assignment(node)}
    loop = _innermost_loop(ctx)
    if not flags or loop is None:
        return False
    inside = {id(node) for node in find_all(handler.body, (cst.If, cst.IfExp))}

    def reads_a_flag(test) -> bool:
        return any(dotted_name(n) in flags for n in find_all(test, (cst.Name, cst.Attribute)))

    # ``if failed: break`` leaves or skips on it; ``try_receive_nowait() if stopping else await
    # receive()`` changes what the loop waits for.
    return any(
        id(branch) not in inside and reads_a_flag(branch.test)
        and (isinstance(branch, cst.IfExp) or bool(find_all(branch.body, (cst.Break, cst.Return, cst.Raise, cst.Continue))))
        for branch in find_all(loop.body, (cst.If, cst.IfExp))
    )


def _is_project_test(test: cst.BaseExpression, ctx: FileContext) -> bool:
    """Is ``test`` (or its negation) a call of a function of the project, which bgcheck has read?"""
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
    return isinstance(test, cst.Call) and ctx.index.resolve_function(ctx.resolve_call(test)) is not None


def _tasks_handed_over(ctx: FileContext) -> set[str]:
    """The names the current function binds only to a task it makes (``task =
    asyncio.create_task(asyncio.sleep(30))``) and hands to someone else: stores, passes on, or lets
    a nested function read (FunctionSummary.handed_tasks, ast_flow.handed_tasks). Whoever holds the
    task can cancel it to cut the wait short."""
    summary = ctx.index.function(ctx.function_qualname) if ctx.function_qualname else None
    return set(summary.handed_tasks) if summary is not None else set()


def _leaves_once_stopped(handler, ctx: FileContext) -> bool:
    """The handler leaves when the work's stop event or flag says so (``if self.event.is_set():
    return``, ``if stopping: return`` of a flag another function sets): a stop asked through that
    event or flag ends the loop; whether the loop goes on after a cancel depends on whether every
    canceller sets it first, which is BG105's to judge."""
    flags = None
    for test in find_all(handler.body, (cst.If,)):
        if exits(test.body, ctx.is_exit_call) & {FALL, CONTINUE}:
            continue
        if _is_stop_state_test(test.test):
            return True
        name = dotted_name(test.test)
        if name:
            flags = _flags_set_elsewhere(ctx) if flags is None else flags
            if name in flags:
                return True
    return False


def _flags_set_elsewhere(ctx: FileContext) -> set[str]:
    """Names and ``self.`` attributes assigned outside the current function, in its module (the
    enclosing function's ``stopping = True`` before it cancels, a ``stop()`` method's
    ``self._stopping = True``)."""
    inside: set[int] = set()
    found: set[str] = set()

    class _Mark(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            inside.add(id(node))

    class _Collect(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if id(node) not in inside:
                found.update(n for n in (dotted_name(t.target) for t in node.targets) if n)

    if ctx.function_node is not None:
        walk(ctx.function_node, _Mark())
    walk(ctx.module, _Collect())
    return found


def _hands_over_exception(handler) -> bool:
    """``except BaseException as exc: outcome["error"] = exc`` (or ``future.set_exception(exc)``,
    ``errors.put(exc)``, ``return exc``): the exception is handed to someone who deals with it, not
    swallowed. Logging it or formatting it into a message does not count."""
    if handler.name is None or not isinstance(handler.name.name, cst.Name):
        return False
    name = handler.name.name.value
    found = False

    def mentions(node) -> bool:
        class _Finder(cst.CSTVisitor):
            hit = False

            def visit_Name(self, n: cst.Name) -> None:
                if n.value == name:
                    _Finder.hit = True

        finder = _Finder()
        walk(node, finder)
        return _Finder.hit

    class _Walker(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> bool:
            return False

        def visit_Raise(self, node) -> bool:
            return False  # ``raise Other(str(exc)) from exc`` replaces it, it does not hand it over

        def visit_Assign(self, node: cst.Assign) -> None:
            nonlocal found
            found = found or mentions(node.value)

        def visit_Return(self, node: cst.Return) -> None:
            nonlocal found
            found = found or (node.value is not None and mentions(node.value))

        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            func = node.func
            callee = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
            if callee not in _LOGGING_CALLS:  # passed on (set_exception, put, a helper); logging it is not
                found = found or any(mentions(arg.value) for arg in node.args)

    walk(handler.body, _Walker())
    return found


def _stop_reraised_earlier(node, ctx: FileContext) -> bool:
    """Does an earlier handler of the same try re-raise the stop this code can receive?

    In a coroutine that is CancelledError; in sync job code, SystemExit and
    KeyboardInterrupt (the stops a worker delivers)."""
    try_node = ctx.parent()
    kinds: set = set()
    for handler in try_node.handlers:
        if handler is node:
            break
        if always_raises(handler.body, ctx.is_exit_call):
            kinds.update(k for k in map(_cancellation_kind, _caught_names(handler, ctx)) if k)
    if ctx.in_coroutine:
        return bool(kinds - knowledge.PROCESS_INTERRUPTS)
    return knowledge.PROCESS_INTERRUPTS <= kinds


def _in_loop(ctx: FileContext) -> bool:
    return _innermost_loop(ctx) is not None


def _goes_on_in_its_loop(ctx: FileContext, handler_exits: set[str]) -> bool:
    """Is the handler inside a loop of its function, and can it ``continue``, or fall through to
    code that does not always leave the loop, so that the loop goes round again after it?"""
    return _in_loop(ctx) and (CONTINUE in handler_exits or FALL in handler_exits and not _loop_left_after_the_try(ctx))


def _loop_left_after_the_try(ctx: FileContext) -> bool:
    """Once the handler falls through, does what runs next in the loop's body always leave the
    loop, with no ``continue`` on the way (``await self.server.wait_closed()`` then ``break``, after
    the ``if`` and the outer ``try`` the handler's ``try`` is in)?"""
    loop = _innermost_loop(ctx)
    chain = ctx.ancestors
    for position in range(len(chain) - 2, 0, -1):
        child, parent = chain[position], chain[position - 1]
        if parent is loop:
            return False
        if isinstance(parent, cst.IndentedBlock):
            index = next((i for i, statement in enumerate(parent.body) if statement is child), None)
            if index is None:
                return False
            after = exits(parent.body[index + 1:], ctx.is_exit_call)
            if CONTINUE in after:
                return False
            if FALL not in after:
                return True
        elif isinstance(parent, cst.Try) and parent.orelse is not None and child is parent.body:
            return False  # the ``else:`` block runs next
    return False


def _during_cleanup(ctx: FileContext, finally_blocks: bool = True) -> bool:
    """Is this code inside a ``finally:`` block, or inside an ``except`` clause that re-raises on
    every path (same function)? An exception is then already on its way out, and carries on once
    the cleanup is done: swallowing a second cancellation that arrives during the cleanup (the
    shield-until-cleanup idiom) holds the stop off until then; it does not lose it. A coroutine run
    only as such cleanup (every caller calls it in a ``finally:``: see bgcheck.model.execution)
    counts as that ``finally:`` block. Without ``finally_blocks``, only the re-raising ``except``
    clause counts: unlike a ``finally:``, it runs only while an exception is on its way out (BG104:
    whatever a handler guarding its cleanup swallows, the caught exception goes on and the task ends)."""
    for node in reversed(ctx.ancestors[:-1]):
        if node is ctx.function_node and isinstance(node, cst.FunctionDef):
            if not finally_blocks:
                return False
            model = ctx.index.execution
            return model is not None and model.runs_only_in_cleanup(ctx.function_qualname)
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return False
        if finally_blocks and isinstance(node, cst.Finally):
            return True
        if isinstance(node, (cst.ExceptHandler, cst.ExceptStarHandler)) and always_raises(node.body, ctx.is_exit_call):
            return True
    return False


def _return_ends_every_run(ctx: FileContext) -> bool:
    """Is the current coroutine one whose return ends every run it is part of (a task of its own
    that nobody in the project awaits, a route only its framework runs, or a coroutine such a one
    ends on: bgcheck.model.execution)? Swallowing its cancellation on the way out (a handler that
    ends it: BG101, BG105; a ``return`` in its ``finally:``: BG103) ends that task as a success,
    as asked, and nothing carries on from it."""
    model = ctx.index.execution
    return model is not None and model.ends_every_run(ctx.function_qualname)


def _ends_the_task(ctx: FileContext, handler_exits: set[str]) -> bool:
    """Does swallowing the cancellation here end the coroutine rather than keep it running, in a
    coroutine whose return ends every run it is part of (a task of its own that nobody in the
    project awaits, a route only its framework runs, or a coroutine such a one ends on)?

    The handler must not go round a loop again: outside loops any way out does; inside a loop,
    only ``return``, a raise, or a ``break`` out of the one loop there is. Then the task stops
    when asked, as a success, and no caller carries on from it. What keeps running through the
    stop (a loop that goes on, a caller that awaits this coroutine and goes on) is reported."""
    if not ctx.in_coroutine or CONVERT in handler_exits or not _return_ends_every_run(ctx):
        return False
    model = ctx.index.execution
    loops = 0
    for node in reversed(ctx.ancestors[:-1]):
        if isinstance(node, (cst.FunctionDef, cst.Lambda)):
            break
        if isinstance(node, (cst.For, cst.While)):
            loops += 1
    if not model.runs_only_as_task(ctx.function_qualname):
        # a route or a tail call of one: the handler must leave the function, or fall to its end
        return handler_exits <= {RETURN, RAISE} or (loops == 0 and handler_exits <= {RETURN, RAISE, FALL} and _falls_to_the_end(ctx))
    if loops == 0:
        return True
    allowed = {RETURN, RAISE} | ({BREAK} if loops == 1 else set())
    return handler_exits <= allowed


def _with_its_loop_ended(handler, ctx: FileContext, handler_exits: set[str]) -> set[str]:
    """The handler's ways out, with falling through (or ``continue``) taken as a ``break`` when the
    handler sets a flag that ends the ``while`` around it (``shutdown = True`` in ``while not
    shutdown:``; ``self.close()`` setting ``self._closing = True`` in ``while not self._closing:``):
    the loop tests the flag before it goes round again, and leaves. So too, falling through, when
    the statement right after the ``try`` tests the flag the handler set and leaves the loop
    (``abort = True``, then ``if abort: break``)."""
    loop = _innermost_loop(ctx)
    if not handler_exits & {FALL, CONTINUE}:
        return handler_exits
    values = dict(_statement_assignments(handler, ctx))
    if isinstance(loop, cst.While) and _falsified_by(loop.test, values):
        return (handler_exits - {FALL, CONTINUE}) | {BREAK}
    if FALL in handler_exits and loop is not None and _next_statement_leaves(ctx.parent(), loop, values, ctx):
        return (handler_exits - {FALL}) | {BREAK}
    return handler_exits


def _statement_assignments(handler, ctx: FileContext) -> list[tuple[str, bool]]:
    """(name, value) of each ``name = True`` / ``name = False`` (also ``self.name``) among the
    handler's own statements, and of each ``self.name = True`` / ``False`` among the own statements
    of a method of the class that the handler calls as a statement of its own (``self.close()``)."""
    found = []
    for statement in handler.body.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            found.extend(_flag_assignment(small))
            if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and not small.value.args:
                method = _own_method(small.value.func, ctx)
                if method is not None:
                    found.extend(
                        (name, value)
                        for line in method.body.body if isinstance(line, cst.SimpleStatementLine)
                        for own in line.body
                        for name, value in _flag_assignment(own) if name.startswith("self.")
                    )
    return found


def _flag_assignment(small) -> list[tuple[str, bool]]:
    """``flag = True`` / ``self.flag = False``: [(dotted target, value)]; [] for anything else."""
    if not (isinstance(small, cst.Assign) and isinstance(small.value, cst.Name) and small.value.value in ("True", "False")):
        return []
    names = (dotted_name(t.target) for t in small.targets if isinstance(t.target, (cst.Name, cst.Attribute)))
    return [(name, small.value.value == "True") for name in names if name and name.count(".") <= 1]


def _own_method(func, ctx: FileContext):
    """The plain method of the class around the handler that ``self.<name>`` calls, if the class defines it."""
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self"):
        return None
    owner = _method_class(ctx)
    if owner is None or not isinstance(owner.body, cst.IndentedBlock):
        return None
    return next(
        (s for s in owner.body.body if isinstance(s, cst.FunctionDef) and s.name.value == func.attr.value and s.asynchronous is None
         and isinstance(s.body, cst.IndentedBlock)),
        None,
    )


def _falsified_by(test: cst.BaseExpression, values: dict) -> bool:
    """Is a ``while`` test false once the names hold ``values``: ``not flag`` with the flag true,
    ``running`` with it false, or either ``and``-ed with other tests?"""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _falsified_by(test.left, values) or _falsified_by(test.right, values)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _flag_value(test.expression, values) is True
    return _flag_value(test, values) is False


def _made_true_by(test: cst.BaseExpression, values: dict) -> bool:
    """Is an ``if`` test true once the names hold ``values`` (``abort`` with it true, ``not ok``
    with it false, either ``or``-ed with other tests)?"""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
        return _made_true_by(test.left, values) or _made_true_by(test.right, values)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _flag_value(test.expression, values) is False
    return _flag_value(test, values) is True


def _flag_value(test: cst.BaseExpression, values: dict) -> Optional[bool]:
    name = dotted_name(test) if isinstance(test, (cst.Name, cst.Attribute)) else None
    return values.get(name) if name else None


def _next_statement_leaves(try_node, loop, values: dict, ctx: FileContext) -> bool:
    """Is the statement right after ``try_node`` in ``loop``'s own body an ``if`` that the handler's
    flag ``values`` make true and whose block always leaves the loop (``break``, ``return``, raise)?"""
    body = loop.body.body if isinstance(loop.body, cst.IndentedBlock) else ()
    position = next((i for i, statement in enumerate(body) if statement is try_node), None)
    if position is None or position + 1 >= len(body) or not values:
        return False
    following = body[position + 1]
    return (
        isinstance(following, cst.If) and _made_true_by(following.test, values)
        and exits(following.body, ctx.is_exit_call) <= {BREAK, RETURN, RAISE}
    )


def _falls_to_the_end(ctx: FileContext) -> bool:
    """Is the handler's ``try`` statement where its function ends: nothing runs after it but the
    ends of the blocks around it (``with`` exits, ``finally:`` cleanup)?"""
    chain = ctx.ancestors
    for position in range(len(chain) - 2, 0, -1):
        child, parent = chain[position], chain[position - 1]
        if isinstance(parent, cst.FunctionDef):
            return True
        if isinstance(parent, cst.IndentedBlock):
            if not parent.body or parent.body[-1] is not child:
                return False
        elif isinstance(parent, cst.Try):
            if parent.orelse is not None and child is parent.body:
                return False
        elif not isinstance(parent, (cst.With, cst.If, cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally, cst.TryStar)):
            return False
    return False


def _records_the_stop_in_a_flag(handler, ctx: FileContext) -> bool:
    """The handler records the stop in a flag of its object (``self.interrupted = True`` as one of
    its statements), and the class acts on that flag: a ``while`` tests it, or an ``if`` tests it
    (``if self.interrupted:``, ``if not self.running:``) and then leaves (returns, breaks, raises).
    The stop is then honoured where the flag is read, the stop protocol of a runner whose interrupt
    halts its queue. A flag nothing in the class tests, or one tested only to go on, is reported."""
    owner = next((node for node in reversed(ctx.ancestors) if isinstance(node, cst.ClassDef)), None)
    if owner is None:
        return False
    flags = set()
    for statement in handler.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        written = target.target
                        if isinstance(written, cst.Attribute) and isinstance(written.value, cst.Name) and written.value.value == "self":
                            flags.add(written.attr.value)
    if not flags:
        return False

    def tests_a_flag(test) -> bool:
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test = test.expression
        return isinstance(test, cst.Attribute) and isinstance(test.value, cst.Name) and test.value.value == "self" and test.attr.value in flags

    found = False

    class _Finder(cst.CSTVisitor):
        def visit_While(self, node: cst.While) -> None:
            nonlocal found
            found = found or tests_a_flag(node.test)

        def visit_If(self, node: cst.If) -> None:
            nonlocal found
            found = found or (tests_a_flag(node.test) and FALL not in exits(node.body, ctx.is_exit_call))

    walk(owner, _Finder())
    return found


def _hands_on_every_stop_it_is_asked(node, ctx: FileContext) -> bool:
    """The handler's own protocol passes every stop meant for this work on: it re-raises every
    cancellation but the one its stop event or future asked for; or re-raises the stop unless the
    work had already failed, and then reports that failure; or re-raises while the running task
    is being cancelled (only an awaited future's own cancel is swallowed). BG101 and BG102 alike."""
    return (
        _swallows_only_once_stopped(node, ctx) or _reports_a_recorded_failure(node, ctx) or _reraises_own_cancellation(node, ctx)
        or _reraises_unless_the_awaited_task_was_cancelled(node, ctx)
    )


def _interrupt_keeps_work_running(ctx: FileContext, handler_exits: set[str]) -> bool:
    """Whether swallowing KeyboardInterrupt / SystemExit here keeps work going.

    Outside coroutines and job code, a handler that lets the function go on is the
    top-level ``except KeyboardInterrupt:`` around ``main()``: the program then ends.
    Inside a loop, a handler that can go round again keeps the program running. Job code that
    only runs where no stop is raised (threads, Celery tasks: knowledge.NO_STOP_EXCEPTION_FRAMEWORKS)
    is program code here: as such a job's work, the interrupt never reaches it (a service loop
    also run by a thread: ``except SystemExit: stop.set()`` around its loop).
    """
    if ctx.in_coroutine:
        return bool(ctx.in_job_code) or not _handler_ends_the_function(ctx, handler_exits)
    model = ctx.index.execution
    if ctx.in_job_code and not (model is not None and model.job_code_receives_no_stop(ctx.function_qualname)) and not _runs_as_the_program(ctx):
        return True
    return _goes_on_in_its_loop(ctx, handler_exits)


def _runs_as_the_program(ctx: FileContext) -> bool:
    """Job code of worker processes only (a management command's worker loop): the process runs it
    as its main program, so an interrupt that ends it ends the program, as around ``main()``."""
    return ctx.index.runs_only_as(ctx.function_qualname, "worker loop")


def _handler_ends_the_function(ctx: FileContext, handler_exits: set[str]) -> bool:
    """Once the handler is done (and the ``finally:`` blocks on the way out), does the function
    return: the handler returns (or raises) on every path; or no loop encloses the handler in the
    function, the handler does not ``continue`` or ``break``, and the ``try`` is the function's last
    statement (or followed only by a ``return``) at every level up to the function's body? A coroutine's outermost ``except
    KeyboardInterrupt: log`` before its ``finally:`` runs the shutdown is then the program's
    graceful stop, as the top-level handler around ``main()`` is."""
    if not handler_exits <= {FALL, RETURN, RAISE}:
        return False
    if FALL not in handler_exits:
        return True  # it returns (or raises): the function ends there, wherever the ``try`` stands
    chain = ctx.ancestors
    for index in range(len(chain) - 2, 0, -1):
        child, parent = chain[index + 1], chain[index]
        if parent is ctx.function_node:
            return True
        if isinstance(parent, (cst.For, cst.While, cst.FunctionDef, cst.Lambda, cst.ClassDef, cst.Module)):
            return False
        if isinstance(parent, cst.IndentedBlock):
            body = list(parent.body)
            after = body[body.index(child) + 1 :] if child in body else []
            if not all(_is_return_statement(statement) for statement in after):
                return False
    return False


def _is_return_statement(statement) -> bool:
    """``return ...`` (a string beside it on the line does nothing)."""
    return isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Return)


def _stop_protocol_followed(node, ctx: FileContext, kinds: list, handler_exits: set[str]) -> Optional[str]:
    """The stop protocol that makes a swallowing handler (one that does not yield) right, said as
    --verbose says it ("" when there is nothing worth a note), or None when none is followed."""
    if _hands_on_every_stop_it_is_asked(node, ctx):
        return "its stop protocol passes on every stop it is asked (re-raised unless its own stop asked for it)"
    if "asyncio.CancelledError" in kinds and _uncancels_the_running_task(node, ctx):
        return "it calls uncancel() on the running task: the cancellation is consumed on purpose, as asyncio asks"
    if "asyncio.CancelledError" in kinds and _recancels_the_running_task(node, ctx):
        return "it cancels the running task again: the stop arrives at its next suspension point"
    if _defers_the_reraise(node, ctx, handler_exits):
        return "it keeps the stop in a flag and the function raises it once its cleanup is done"
    if _loop_stops_on_its_cancellers_flag(ctx):
        return "its loop tests a flag that the method cancelling it sets first: the loop then ends"
    if _interrupts_a_turn_of_a_prompt_loop(node, ctx, kinds):
        return "its loop waits at a terminal prompt: the user's interrupt of a turn brings the program back to it"
    if _records_the_stop_in_a_flag(node, ctx):
        return "it records the stop in a flag of its object, which the class tests to stop"
    if set(kinds) <= knowledge.PROCESS_INTERRUPTS and not _interrupt_keeps_work_running(ctx, handler_exits):
        # the top-level ``except KeyboardInterrupt`` around main(): the program then ends
        return "the handler ends the program's (or the coroutine's) outermost work: the stop is honoured"
    if _ends_the_task(ctx, _with_its_loop_ended(node, ctx, handler_exits)):
        return "the task ends when asked (as a success), and nothing goes on from it"
    if ctx.in_coroutine and CONVERT not in handler_exits and _during_cleanup(ctx):
        return ""  # a second cancel during cleanup: the exception in flight goes on after it
    return None


# (short message, explanation) per kind of stop.
_MESSAGES = {
    "KeyboardInterrupt": (
        "`{clause}` swallows Ctrl-C: the {where} keeps running",
        "The handler can finish without re-raising: Ctrl-C and the stop it asks for are swallowed, and the "
        "{where} keeps running. Re-raise after cleanup.",
    ),
    "SystemExit": (
        "`{clause}` swallows `sys.exit()`: the {where} keeps running",
        "The handler can finish without re-raising: `sys.exit()` (how a SIGTERM handler usually stops a worker) "
        "is swallowed, and the {where} keeps running. Re-raise after cleanup.",
    ),
    "concurrent.futures.CancelledError": (
        "`{clause}` can finish without re-raising: a cancelled future counts as a result",
        "Work that was stopped is counted as done. Re-raise it, or handle the cancellation explicitly.",
    ),
}
_CONVERT_MESSAGE = (
    "`{clause}` turns the stop into another exception",
    "The handler raises another exception (`raise OtherError(...)`): an `except Exception` further up catches it "
    "and carries on, so the stop request is lost. Re-raise it (`raise`) after cleanup.",
)
_YIELD_MESSAGE = (
    "`yield` inside `{clause}` hands control to the consumer before the stop is re-raised",
    "The consumer runs on as if nothing happened, and may never resume the generator. Clean up without yielding, "
    "then re-raise.",
)
_LOOP_MESSAGE = (
    "`{clause}` swallows the stop request, and the loop goes round again",
    "The task was asked to stop, but the handler lets the loop start its next round, so the task keeps working: "
    "TaskGroup, asyncio.timeout() and shutdown wait for work that never stops. Re-raise it (`raise`) after cleanup.",
)
_DEFAULT_MESSAGE = (
    "`{clause}` can finish without re-raising: the stop request is swallowed",
    "The work goes on, so TaskGroup, asyncio.timeout() and shutdown wait for work that never stops. Re-raise it "
    "(`raise`) after cleanup.",
)


@register
class CancellationSwallowed(Rule):
    code = "BG101"
    fixable = "unsafe"
    preview = False  # held-out precision 100% of 10 judged, once its unsure cases went to BG105: see scripts/ecosystem/report.md
    name = "cancellation-swallowed"
    severity = Severity.ERROR
    reads = ("execution", "job_code", "never_suspending", "prompts")
    summary = "A coroutine catches its own cancellation inside a loop and goes round again, so the task never stops."
    # This code reports the loop that goes on; StopRequestSwallowed (BG105) every other swallowed stop.
    goes_round_again = True

    def is_relevant(self, unit) -> bool:
        # visit_ExceptHandler: a clause naming a cancellation exception; visit_With: contextlib.suppress()
        if any(_cancellation_kind(name) for _scope, _in_async, names in handlers(unit) for name in names):
            return True
        return calls_any(unit, lambda canonical, _method: canonical == "contextlib.suppress")

    def visit_ExceptHandler(self, node: cst.ExceptHandler, ctx: FileContext) -> None:
        # dict.fromkeys: one mention per kind, in the order written
        kinds = list(dict.fromkeys(k for k in map(_cancellation_kind, _caught_names(node, ctx)) if k))
        if not kinds or _unreachable(node, ctx):
            return
        try_node = ctx.parent()
        kinds = _stops_that_can_arrive(kinds, try_node, ctx)
        if not kinds:
            return
        yielded = _yields(node.body) if ctx.in_coroutine or ctx.in_job_code else None
        handler_exits = _handler_exits(node, ctx)
        if (yielded is None and _goes_round_again(kinds, node, try_node.body, handler_exits, ctx)) != self.goes_round_again:
            return  # the other code's handler (BG101: the loop that goes on; BG105: the rest)
        if "SystemExit" in kinds and not _system_exit_can_arrive(try_node.body, ctx):
            kinds = [k for k in kinds if k != "SystemExit"]
            if not kinds:
                ctx.silence(self, node, "no signal handler of the project raises SystemExit and nothing the try calls exits: only foreign code's own exit can arrive")
                return
        if "KeyboardInterrupt" in kinds and _waits_at_a_prompt(try_node.body, ctx):
            kinds = [k for k in kinds if k != "KeyboardInterrupt"]
            if not kinds:
                ctx.silence(self, node, "its try waits at a terminal prompt: Ctrl-C there cancels the input, a shell's idiom")
                return
        if _is_cancel_then_await(try_node.body, ctx):
            ctx.silence(self, node, "it awaits a task it has just cancelled itself: that task's cancellation, not this one's")
            return
        kinds = _counts_future_as_result(kinds, handler_exits)
        if not kinds or yielded is None and (handler_exits <= {RAISE} or _hands_over_exception(node)):
            return
        if kinds == [knowledge.FUTURE_CANCELLATION] and yielded is None and _done_callback_handles_cancel(ctx, try_node.body, handler_exits):
            ctx.silence(self, node, "a done-callback handling its own future's cancellation, and ending there: nothing counts it as a result")
            return
        if yielded is None:
            protocol = _stop_protocol_followed(node, ctx, kinds, handler_exits)
            if protocol is not None:
                if protocol:
                    ctx.silence(self, node, protocol)
                return
        what = kinds[0] if len(kinds) == 1 else "(" + ", ".join(kinds) + ")"
        clause = f"{_except_keyword(node)} {what}"
        if yielded is not None:
            template = _YIELD_MESSAGE
        elif handler_exits <= {RAISE, CONVERT}:
            template = _CONVERT_MESSAGE
        else:
            template = _MESSAGES.get(kinds[0], _DEFAULT_MESSAGE) if len(kinds) == 1 else _DEFAULT_MESSAGE
        if self.goes_round_again:
            template = _LOOP_MESSAGE
        where = "coroutine" if ctx.in_coroutine else "job" if ctx.in_job_code else "program"
        message, explanation = (text.format(clause=clause, where=where) for text in template)
        fix = _reraise_fix(node, ctx) if yielded is None and FALL in handler_exits and handler_exits <= {FALL, RAISE} else None
        ctx.report(self, node, message, explanation, end_node=node.type or node.whitespace_after_except, fix=fix)

    visit_ExceptStarHandler = visit_ExceptHandler

    def visit_With(self, node: cst.With, ctx: FileContext) -> None:
        for item in node.items:
            call = item.item
            if not isinstance(call, cst.Call) or ctx.resolve_call(call) != "contextlib.suppress":
                continue
            kinds = []
            for arg in call.args:
                value = arg.value
                name = f"{ctx.resolve_call(value)}()" if isinstance(value, cst.Call) else ctx.resolve(value)
                kind = _cancellation_kind(name)
                if kind:
                    kinds.append(kind)
            kinds = _stops_that_can_arrive(kinds, node, ctx)
            if "SystemExit" in kinds and not _system_exit_can_arrive(node.body, ctx):
                kinds = [k for k in kinds if k != "SystemExit"]
            if not kinds or _is_cancel_then_await(node.body, ctx):
                continue
            if ctx.in_coroutine and _during_cleanup(ctx):
                continue  # a second cancel during cleanup: the exception in flight goes on after it
            if set(kinds) <= knowledge.PROCESS_INTERRUPTS and not _interrupt_keeps_work_running(ctx, {FALL}):
                continue
            if _goes_round_again(kinds, None, node.body, {FALL}, ctx) != self.goes_round_again:
                continue  # the other code's finding
            what = ", ".join(dict.fromkeys(kinds))
            ctx.report(
                self,
                call,
                f"`contextlib.suppress({what})` swallows the stop request",
                "The block ends as if it had finished, and whatever waits for this work to stop waits for ever. "
                "Let the exception propagate.",
            )



def _reraise_fix(node, ctx) -> Optional[Fix]:
    """BG101's fix: re-raise at the end of the handler (a lone ``pass`` becomes ``raise``, else a
    ``raise`` line follows the handler's last statement). Unsafe: the stop now propagates, so what
    follows the ``try`` no longer runs when the work is stopped. Offered only when the handler can
    only fall off its end (no ``return``, ``break``, ``continue`` or ``yield`` on the way, which a
    re-raise at the end would not cover), its body is an indented block, and everything it catches
    is a stop."""
    body = node.body
    if not isinstance(body, cst.IndentedBlock) or not body.body:
        return None
    if not all(_cancellation_kind(name) for name in _caught_names(node, ctx)):
        return None  # ``except (CancelledError, ValueError)``: a re-raise would re-raise the ValueError too
    return Fix(Applicability.UNSAFE, "Re-raise the stop at the end of the handler", (_raise_at_end(body, ctx),))


def _raise_at_end(body: cst.IndentedBlock, ctx) -> Edit:
    """The edit that ends a handler's block with ``raise`` (a lone ``pass`` becomes it)."""
    last = body.body[-1]
    if len(body.body) == 1 and isinstance(last, cst.SimpleStatementLine) and [type(s) for s in last.body] == [cst.Pass]:
        return ctx.replace(last.body[0], "raise")
    line = ctx.position(last).end.line + 1
    return Edit(line, 1, line, 1, f"{ctx.indentation(last)}raise{ctx.module.default_newline}")


@register
class StopRequestSwallowed(CancellationSwallowed):
    """BG101's other findings, split off as their own code: the handler swallows a stop request
    (a cancellation, Ctrl-C, ``sys.exit()``) where no loop of its own goes round again: it returns,
    falls to the end of its function, converts the stop, or it is Ctrl-C or ``sys.exit()`` in a
    loop. Whether work goes on then depends on its callers or the program's stop protocol, which
    judges of real projects found right far less often."""

    code = "BG105"
    split_from = "BG101"
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    name = "stop-request-swallowed"
    summary = (
        "A handler catches a stop request (a cancellation, Ctrl-C, sys.exit()) and returns, converts it or ends "
        "its function without re-raising it, so whatever called the work may carry on."
    )
    goes_round_again = False


@register
class BroadExceptSwallowsCancellation(Rule):
    code = "BG102"
    fixable = "unsafe"
    name = "broad-except-swallows-cancellation"
    severity = Severity.ERROR
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    reads = ("execution", "job_code", "never_suspending")
    summary = "A bare `except:` or `except BaseException:` in a coroutine or job code catches the stop request and carries on."

    def is_relevant(self, unit) -> bool:
        # a bare ``except:`` or one naming BaseException, in a coroutine or in job code
        is_job_code = unit.index.is_job_code
        return any(
            (in_async or is_job_code(scope)) and (not names or any(n in knowledge.BASE_EXCEPTION for n in names))
            for scope, in_async, names in handlers(unit)
        )

    def visit_ExceptHandler(self, node: cst.ExceptHandler, ctx: FileContext) -> None:
        if not (ctx.in_coroutine or ctx.in_job_code):
            return
        names = _caught_names(node, ctx)
        bare = node.type is None
        if not bare and not any(n in knowledge.BASE_EXCEPTION for n in names):
            return
        if any(_cancellation_kind(n) for n in names):
            return  # BG101 reports handlers that name the cancellation exception
        if _unreachable(node, ctx):
            return  # an earlier ``except BaseException`` takes everything
        try_node = ctx.parent()
        context = ctx.thread_context
        if context == execution.COROUTINE and not _can_receive_cancellation(try_node.body, ctx):
            return  # no await in the try (or only of finished tasks): no cancellation can arrive there
        if context == execution.WORKER_THREAD:
            return  # a worker thread receives neither KeyboardInterrupt nor a signal handler's SystemExit
        model = ctx.index.execution
        if not ctx.in_coroutine and model is not None and model.job_code_receives_no_stop(ctx.function_qualname):
            return  # as a job it runs only where no stop is raised; called on the main thread it is program code
        yielded = _yields(node.body)
        handler_exits = _handler_exits(node, ctx)
        if yielded is None and (handler_exits <= {RAISE} or _hands_over_exception(node)):
            return
        if yielded is None and _hands_on_every_stop_it_is_asked(node, ctx):
            return
        if _stop_reraised_earlier(node, ctx):
            return  # ``except (SystemExit, KeyboardInterrupt): raise`` above takes the stop first
        if ctx.in_coroutine and _cancellation_taken_earlier(node, ctx):
            return  # ``except trio.Cancelled:`` above takes the cancellation (BG101 reports it if swallowed)
        if ctx.in_coroutine and _is_cancel_then_await(try_node.body, ctx):
            return
        if yielded is None and _ends_the_task(ctx, handler_exits):
            return  # the task stops when asked (as a success), and nothing goes on from it
        if yielded is None and ctx.in_coroutine and CONVERT not in handler_exits and _during_cleanup(ctx):
            return  # a second cancel during cleanup: the exception in flight goes on after it
        what = "`except:`" if bare else f"`{_except_keyword(node)} BaseException`"
        if ctx.in_coroutine:
            short, caught = "the cancellation", "asyncio.CancelledError"
            effect = "the task reports success, and TaskGroup, asyncio.timeout() and shutdown wait for work that never stops"
        else:
            short, caught = "the worker's stop", "the worker's stop (SystemExit, KeyboardInterrupt, dramatiq's Shutdown and TimeLimitExceeded)"
            effect = "the job keeps running through a stop and is killed mid-work when the grace period ends"
        if yielded is not None:
            message = f"`yield` inside {what} hands control to the consumer before {short} is re-raised"
            explanation = f"The handler catches {caught}; the consumer runs on as if nothing happened. Clean up without yielding, then re-raise."
        elif handler_exits <= {RAISE, CONVERT}:
            message = f"{what} turns {short} into another exception"
            explanation = f"The handler catches {caught}: an `except Exception` further up catches what it raises instead and carries on, so the stop is lost. Re-raise the caught exception (`raise`)."
        else:
            message = f"{what} catches {short} and can finish without re-raising"
            explanation = f"The handler catches {caught}: {effect}. Catch `Exception` instead, or re-raise."
        fix = _catch_exception_fix(node, ctx) if yielded is None and not handler_exits <= {RAISE, CONVERT} else None
        ctx.report(self, node, message, explanation, end_node=node.type or node.whitespace_after_except, fix=fix)

    visit_ExceptStarHandler = visit_ExceptHandler


def _catch_exception_fix(node, ctx: FileContext) -> Optional[Fix]:
    """BG102's fix: ``except:`` / ``except BaseException:`` becomes ``except Exception:``. Unsafe:
    SystemExit, KeyboardInterrupt and CancelledError now propagate, which is the point, but code
    that counted on catching them behaves differently. None when an earlier clause of the same
    ``try`` catches ``Exception`` (this clause is then there for the stops only: the right change
    is a re-raise, not a narrower catch) or when the clause names a tuple."""
    for handler in ctx.parent().handlers:
        if handler is node:
            break
        if handler.type is None or any(n in _ORDINARY_CATCH_ALL for n in _caught_names(handler, ctx)):
            return None
    if node.type is None:
        keyword = ctx.position(node).start  # `except` is where the clause starts
        edit = Edit(keyword.line, keyword.column + 7, keyword.line, keyword.column + 7, " Exception")
    elif isinstance(node.type, (cst.Name, cst.Attribute)):
        edit = ctx.replace(node.type, "Exception")
    else:
        return None
    return Fix(Applicability.UNSAFE, "Catch `Exception` instead", (edit,))


_ORDINARY_CATCH_ALL = frozenset(("builtins.Exception", "Exception"))


def _cancellation_can_reach_finally(node, ctx: FileContext) -> bool:
    """Can a cancellation of the running coroutine be in flight when ``node``'s ``finally:`` runs?
    It arrives at a suspension point where one can arrive (_can_receive_cancellation: not an await
    of a project coroutine that never suspends or keeps its cancellation, nor of a task already
    done): in the ``try`` body, unless a clause of the ``try`` takes CancelledError and never
    raises (the body's cancellation ends there), or in a handler or the ``else:`` block."""
    if _can_receive_cancellation(node.body, ctx) and not _keeps_the_bodys_cancellation(node, ctx):
        return True
    blocks = [handler.body for handler in node.handlers] + ([node.orelse.body] if node.orelse is not None else [])
    return any(_can_receive_cancellation(block, ctx) for block in blocks)


def _keeps_the_bodys_cancellation(node, ctx: FileContext) -> bool:
    """Is the first clause of the ``try`` that takes asyncio's CancelledError (by name,
    ``BaseException`` or a bare ``except:``) one with no ``raise`` in it?"""
    for handler in node.handlers:
        if _catches_everything(handler, ctx) or any(_cancellation_kind(name) == "asyncio.CancelledError" for name in _caught_names(handler, ctx)):
            return not find_all(handler.body, (cst.Raise,))
    return False


@register
class FinallySwallowsCancellation(Rule):
    code = "BG103"
    name = "finally-swallows-cancellation"
    severity = Severity.ERROR
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    reads = ("execution", "job_code", "never_suspending")
    summary = "`return`, `break` or `continue` in `finally:` in a coroutine or job code discards the in-flight stop request."

    def __init__(self, config) -> None:
        super().__init__(config)
        # A jump in a finally nested in another finally is found from both tries: report it once.
        self._reported: set[int] = set()

    def is_relevant(self, unit) -> bool:
        # a ``finally:`` that a return, break or continue leaves, in a coroutine or in job code
        is_job_code = unit.index.is_job_code
        return any(in_async or is_job_code(scope) for scope, in_async, _names in handlers(unit, ("finally",)))

    def visit_Module(self, node: cst.Module, ctx: FileContext) -> None:
        self._reported = set()

    def visit_Try(self, node: cst.Try, ctx: FileContext) -> None:
        self._check(node, ctx)

    def visit_TryStar(self, node: cst.TryStar, ctx: FileContext) -> None:
        self._check(node, ctx)

    def _check(self, node, ctx: FileContext) -> None:
        if node.finalbody is None:
            return
        if ctx.in_coroutine:
            if not _cancellation_can_reach_finally(node, ctx):
                return  # no CancelledError can be in flight here
            why, detail = "the CancelledError in flight", ""
        elif ctx.in_job_code:
            why, detail = "the stop request in flight", " (SystemExit, a soft time limit, a worker shutdown)"
        else:
            return
        ends_the_task = ctx.in_coroutine and _return_ends_every_run(ctx)
        for jump in escaping_jumps(node.finalbody):
            if id(jump) in self._reported:
                continue
            self._reported.add(id(jump))
            if ends_the_task and isinstance(jump, cst.Return):
                ctx.silence(self, jump, "the return ends the task, run only as a task of its own that nothing awaits (or a route only its framework runs): nothing goes on from it")
                continue
            keyword = type(jump).__name__.lower()
            ctx.report(
                self,
                jump,
                f"`{keyword}` inside `finally:` discards {why}",
                f"The stop{detail} is dropped: the work stops reporting that it was stopped and carries on. "
                "Move it out of the `finally:` block.",
            )


@register
class SoftTimeLimitSwallowed(Rule):
    code = "BG104"
    name = "soft-time-limit-swallowed"
    severity = Severity.ERROR
    fixable = "unsafe"
    reads = ("call_graph", "call_sites", "celery_config", "job_code", "jobs")
    summary = (
        "In a Celery task with a soft time limit, `except Exception` / `except SoftTimeLimitExceeded` in a loop "
        "goes on to the next item."
    )
    # This code reports the handler whose loop goes round again; SoftTimeLimitSwallowedOnce (BG106)
    # every other handler that carries on.
    goes_round_again = True

    def is_relevant(self, unit) -> bool:
        # visit_ExceptHandler: in a Celery task's function, a bare clause or one naming BaseException, the soft
        # limit or Exception; in the code such a task calls, any of them but Exception
        index = unit.index
        for scope, _in_async, names in handlers(unit):
            in_body = any(job.framework == "Celery" for job in index.job_roots.get(scope, ()))
            if not in_body:
                root = index.job_code.get(scope)
                if not any(job.framework == "Celery" for job in index.job_roots.get(root or "", ())):
                    continue
            if not names or any(n in knowledge.SOFT_TIME_LIMIT_EXCEPTIONS or n in knowledge.BASE_EXCEPTION for n in names):
                return True
            if in_body and any(n in knowledge.EXCEPTION for n in names):
                return True
        return False

    def visit_ExceptHandler(self, node: cst.ExceptHandler, ctx: FileContext) -> None:
        task, in_body = _celery_task(ctx), True
        if task is None:
            task, in_body = _celery_task_reaching(ctx), False
        if task is None:
            return
        names = _caught_names(node, ctx)
        catches_soft = [n for n in names if n in knowledge.SOFT_TIME_LIMIT_EXCEPTIONS]
        catches_base = node.type is None or any(n in knowledge.BASE_EXCEPTION for n in names)
        # In a function the task calls, ``except Exception`` is the helper's own error handling; a
        # bare ``except:``, ``except BaseException`` or the limit by name is there for every exception.
        catches_exception = in_body and any(n in knowledge.EXCEPTION for n in names)
        if not (catches_soft or catches_exception or catches_base):
            return
        if always_raises(node.body, ctx.is_exit_call):
            return
        handler_exits = exits(node.body, ctx.is_exit_call)
        if _goes_on_in_its_loop(ctx, handler_exits) != self.goes_round_again:
            return  # the other code's handler (BG104: the loop that goes on; BG106: the rest)
        if in_body and _handler_ends_the_function(ctx, handler_exits):
            # Celery's own cleanup idiom: once the handler is done the task returns, so the limit
            # stopped the work; only what carries on (a loop, code after the try) runs into the hard limit.
            ctx.silence(self, node, "the handler ends the task: the soft limit stops the work (Celery's cleanup idiom)")
            return
        if _during_cleanup(ctx, finally_blocks=False):
            ctx.silence(self, node, "it guards cleanup inside an except clause that always re-raises: the task ends after it")
            return
        if not catches_soft and _caught_earlier(node, ctx):
            return  # an earlier handler of the same try takes SoftTimeLimitExceeded first
        limit = _soft_limit(task, ctx)
        if limit is None:
            return
        seconds, where = limit
        amount = f"{seconds:g} s" if seconds is not None else "a value not known statically"
        what = "SoftTimeLimitExceeded" if catches_soft else "BaseException" if catches_base else "Exception"
        tail = "" if catches_soft else " (SoftTimeLimitExceeded derives from Exception)"
        clause = f"{_except_keyword(node)}:" if node.type is None else f"{_except_keyword(node)} {what}"
        ctx.report(
            self,
            node,
            f"`{clause}` swallows the soft time limit ({amount}) of task `{short_name(task.name)}`",
            f"Celery task `{task.name}` has a soft time limit ({amount}, {where}); this handler catches it{tail} and "
            "can finish without re-raising, so the task runs on into the hard limit and is killed mid-work, or "
            "reports success for work it did not finish. Re-raise SoftTimeLimitExceeded after cleanup.",
            end_node=node.type or node.whitespace_after_except,
            related=() if in_body else notes_from(ctx.index, task.function, ctx.function_qualname),
            fix=_soft_limit_fix(node, bool(catches_soft), ctx),
        )

    visit_ExceptStarHandler = visit_ExceptHandler


@register
class SoftTimeLimitSwallowedOnce(SoftTimeLimitSwallowed):
    """BG104's other findings, split off as their own code: the handler swallows the soft limit
    where no loop of its function goes round again, and the work after the ``try`` (or the caller
    of a helper) carries on. How long that runs decides the harm, which judges of real projects
    found a real problem far less often than a loop going on to its next item."""

    code = "BG106"
    split_from = "BG104"
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    name = "soft-time-limit-swallowed-once"
    summary = (
        "In a Celery task with a soft time limit, `except Exception` / `except SoftTimeLimitExceeded` outside a "
        "loop lets the work after it carry on."
    )
    goes_round_again = False


def _soft_limit_fix(node, catches_soft: bool, ctx: FileContext) -> Optional[Fix]:
    """BG104's fix. ``except Exception:`` gets a clause before it that re-raises the soft time limit
    (``except SoftTimeLimitExceeded: raise``, imported from ``celery.exceptions`` when the module
    has no name for it); ``except SoftTimeLimitExceeded:`` re-raises at its end. Unsafe: the task
    now fails at its soft limit instead of carrying on. Offered for plain ``except`` clauses with an
    indented block; a clause that catches the limit with other exceptions, or can leave by
    ``return``/``break``/``continue`` (which a ``raise`` at the end would not cover), gets none."""
    if not isinstance(node, cst.ExceptHandler) or not isinstance(node.body, cst.IndentedBlock) or not node.body.body:
        return None
    if catches_soft:
        if not all(name in knowledge.SOFT_TIME_LIMIT_EXCEPTIONS for name in _caught_names(node, ctx)):
            return None
        if not exits(node.body, ctx.is_exit_call) <= {FALL, RAISE}:
            return None
        return Fix(Applicability.UNSAFE, "Re-raise the soft time limit at the end of the handler", (_raise_at_end(node.body, ctx),))
    spelled = next(((local, None) for local, target in ctx.summary.imports.items() if target in knowledge.SOFT_TIME_LIMIT_EXCEPTIONS and local.isidentifier()), None)
    spelled = spelled or name_for_import(ctx, "celery.exceptions.SoftTimeLimitExceeded")
    if spelled is None:
        return None
    name, added = spelled
    # On a line of its own above the handler and the comment and blank lines before it, which stay with it.
    line = ctx.position(node).start.line - len(node.leading_lines)
    newline = ctx.module.default_newline
    clause = f"{ctx.indentation(node)}except {name}:{newline}{ctx.indentation(node.body.body[0])}raise{newline}"
    edits = (Edit(line, 1, line, 1, clause),) + ((added,) if added else ())
    return Fix(Applicability.UNSAFE, f"Re-raise `{name}` before this handler", edits)


def _celery_task(ctx: FileContext):
    qualname = ctx.function_qualname
    for job in ctx.index.job_roots.get(qualname or "", ()):
        if job.framework == "Celery":
            return job
    return None


def _celery_task_reaching(ctx: FileContext):
    """The Celery task whose job code this function is (it calls it, directly or not), or None."""
    root = ctx.index.job_code.get(ctx.function_qualname or "")
    return next((job for job in ctx.index.job_roots.get(root or "", ()) if job.framework == "Celery"), None)


def _caught_earlier(node: cst.ExceptHandler, ctx: FileContext) -> bool:
    try_node = ctx.parent()
    for handler in try_node.handlers:
        if handler is node:
            return False
        if any(n in knowledge.SOFT_TIME_LIMIT_EXCEPTIONS for n in _caught_names(handler, ctx)):
            return True
    return False


def _soft_limit(task, ctx: FileContext) -> Optional[tuple[Optional[float], str]]:
    """The task's soft time limit as (seconds, where it is set), or None if it has none.

    Seconds are None when the limit is set to something that does not fold (read from
    the environment, say): the task still has a soft limit. A task option of None or 0
    sets no limit of its own, and Celery falls back to ``task_soft_time_limit``.
    """
    option = task.options.get("soft_time_limit")
    if option is not None:
        value = ctx.index.fold(option)
        if value is UNKNOWN:
            return None, "task option soft_time_limit"
        seconds = as_seconds(value)
        if seconds:
            return seconds, "task option soft_time_limit"
    celery = ctx.index.celery_config
    setting = celery.get("task_soft_time_limit") if celery else None
    if setting is None:
        return None
    where = f"task_soft_time_limit set in {setting.where}"
    if setting.value is UNKNOWN:
        return None, where
    seconds = as_seconds(setting.value)
    return (seconds, where) if seconds else None
