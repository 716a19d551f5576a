"""BG3xx: queues and executors must be bounded.

A queue in memory with no bound turns overload into latency and memory
instead of visible back-pressure, and everything in it is lost at a stop.
"""

from __future__ import annotations

import re
from typing import Optional

from bgcheck.syntax.lazy import cst

from bgcheck import knowledge
from bgcheck.diagnostics import Severity, clip, short_name
from bgcheck.syntax.flow import is_constant_true
from bgcheck.syntax.flow import CONTINUE, CONVERT, FALL, RAISE, always_raises, exits, left_after
from bgcheck.syntax.ir import UNKNOWN
from bgcheck.syntax.cst_ir import call_target, call_target_of_value, dotted_name, is_none, is_string_statement
from bgcheck.rules.base import Rule, register
from bgcheck.rules.calls import argument, assigned_name, holder_of, work_start
from bgcheck.rules.relevance import calls_any, values_caught
from bgcheck.syntax.walk import find_all, walk
from bgcheck.rules.checker import FileContext

@register
class UnboundedQueue(Rule):
    code = "BG301"
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    name = "unbounded-queue"
    severity = Severity.WARNING
    reads = ("queue_puts", "message_callbacks")
    summary = "A queue created with no maxsize (or maxsize <= 0), or a SimpleQueue: overload becomes memory and lost work."

    def is_relevant(self, unit) -> bool:
        # visit_Call: a queue constructor's canonical name
        return calls_any(unit, lambda canonical, _method: canonical in knowledge.QUEUE_CONSTRUCTORS)

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        name = ctx.resolve_call(node)
        if name not in knowledge.QUEUE_CONSTRUCTORS:
            return
        position = knowledge.QUEUE_CONSTRUCTORS[name]
        parts = name.replace("()", "").split(".")
        short = f"{parts[0]}.{parts[-1]}"  # ``multiprocessing.get_context().Queue`` -> ``multiprocessing.Queue``
        if position is None:
            detail = f"Unbounded `{short}()`"
        else:
            maxsize = argument(node, "maxsize", position)
            if maxsize is None:
                detail = f"`{short}()` with no maxsize"
            elif any(a.star for a in node.args):
                return
            else:
                value = ctx.fold(maxsize)
                if value is UNKNOWN or not isinstance(value, (int, float)) or isinstance(value, bool) or value > 0:
                    return  # a positive bound, or one we cannot prove unbounded
                detail = f"`{short}(maxsize={value:g})` (no limit)"
        feeder = _fed_in_a_loop(node, ctx)
        if feeder is None:
            return
        ctx.report(
            self,
            node,
            f"{detail} is fed {feeder}: it grows without bound",
            "When producers outrun consumers the queue grows until memory runs out instead of pushing back, and "
            "everything queued is lost at a stop. Give it a maxsize (a maxsize <= 0 means no limit) and decide "
            "what happens when it is full (block, reject upstream, or drop and count).",
        )


# An attribute named map: a dot, then (inside brackets) spaces, line breaks, backslash continuations or
# comments, then the name (``executor.map``, ``pool . map``, ``(pool.\n    map)``); "map" in other words
# (mapping, _map, a dict's keys) is not a call of Executor.map.
# Each alternative starts with its own character and a comment runs to its line's end, so the match
# never backtracks (``(?:\s|#[^\n]*)*`` did, exponentially, over a dot before a run of ``#``).
_MAP_ATTRIBUTE = re.compile(r"\.(?:\s|\\\n|#[^\n]*\n)*map\b")


@register
class UnboundedExecutorMap(Rule):
    code = "BG302"
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    name = "unbounded-executor-map"
    severity = Severity.WARNING
    summary = "`Executor.map(fn, it)` over an unsized iterable submits every item at once."

    def is_relevant(self, unit) -> bool:
        # the executor itself may be made in another module: only its .map attribute is looked for
        return _MAP_ATTRIBUTE.search(unit.text) is not None and calls_any(unit, lambda _canonical, method: method == "map")

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "map":
            return
        receiver = ctx.resolve(func.value) or ""
        if not any(receiver == f"{cls}()" for cls in knowledge.EXECUTOR_CLASSES):
            return
        if argument(node, "buffersize", None) is not None:
            return
        positional = [a for a in node.args if a.keyword is None and not a.star]
        if len(positional) < 2:
            return
        what = _unsized(positional[1].value, ctx, ctx.function_node)
        if what is None:
            return
        advice = (
            "pass `buffersize=` (Python 3.14+) to bound the items in flight"
            if ctx.config.target_version >= (3, 14)
            else "submit in bounded batches (or with a semaphore) instead; from Python 3.14, `buffersize=` bounds it"
        )
        ctx.report(
            self,
            node,
            f"`Executor.map()` over {clip(what, 40)} submits every item before yielding the first result",
            "The whole input sits in memory as pending futures, and everything not yet run is lost at a stop. "
            f"{advice[0].upper()}{advice[1:]}.",
        )


def _fed_in_a_loop(node: cst.Call, ctx: FileContext) -> Optional[str]:
    """How this queue is fed from a stream, if it is: a put inside a loop over one (``while``, ``async
    for``, a ``for`` over a consumer: the nearest loop around the put), or in a function a message
    library calls once per message (a kombu consumer's ``on_message``: its loop is the library's).
    That is the shape that can outrun its consumer. A queue made per call (a local kept nowhere), one
    that only ever receives sentinels, or one fed once per call of something (a result queue, a
    wake-up queue) is not reported: nothing says it grows."""
    holder = holder_of(node, ctx) or _kept_by_a_constructor(node, ctx)
    if holder is None:
        return None
    callbacks = ctx.index.message_callbacks()
    for item, loop, scope, _summary in ctx.index.queue_puts(holder):
        if ctx.index.is_sentinel(item):
            continue
        if ctx.index.is_stream_loop(loop, holder):
            return f"in a loop in `{short_name(scope.rsplit('.', 1)[-1], 36)}()`"
        if loop is None and scope in callbacks:
            return f"per message in consumer callback `{short_name(scope.rsplit('.', 1)[-1], 36)}()`"
    return None


def _kept_by_a_constructor(node: cst.Call, ctx: FileContext) -> Optional[str]:
    """``work_queue = queue.Queue()`` then ``_Worker(conn, work_queue)``, whose ``__init__`` keeps it
    (``self.work_queue = work_queue``): the attribute it is kept in (``pkg.mod._Worker().work_queue``).
    None for a local handed nowhere, or to anything else."""
    local = assigned_name(ctx)
    function = ctx.function_node
    if local is None or "." in local or function is None:
        return None
    for call in find_all(function.body, (cst.Call,)):
        target = ctx.resolve_call(call)
        if not target or target not in ctx.index.classes:
            continue
        init = next((ctx.index.function(f"{cls}.__init__") for cls in ctx.index.mro(target) if ctx.index.function(f"{cls}.__init__")), None)
        if init is None or not init.param_attrs:
            continue
        params = [p for p in init.params if p not in ("self", "cls")]
        for position, arg in enumerate(call.args):
            if not (isinstance(arg.value, cst.Name) and arg.value.value == local) or arg.star:
                continue
            param = arg.keyword.value if arg.keyword is not None else (params[position] if position < len(params) else None)
            kept = next((path for name, path in init.param_attrs if name == param), None)
            if kept is not None:
                return kept
    return None




def _unsized(node: cst.BaseExpression, ctx: FileContext, function: Optional[cst.FunctionDef] = None) -> Optional[str]:
    """How to describe an iterable that is not sized, or None when it is (or cannot be told).

    ``function``: the function around the call, where a local name bound once
    (``rows = (r for r in ...)``, ``cur = conn.cursor()``) is looked through."""
    if isinstance(node, cst.Name) and function is not None:
        value = _single_binding(function, node.value)
        if value is not None:
            return _unsized(value, ctx)  # one level only: no chains, no cycles
    if isinstance(node, cst.GeneratorExp):
        return "a generator expression"
    if isinstance(node, (cst.List, cst.Tuple, cst.Set, cst.Dict, cst.ListComp, cst.SetComp, cst.DictComp)):
        return None
    if isinstance(node, cst.Call):
        name = ctx.resolve_call(node) or ""
        if name == "range":
            return None
        if name in ("itertools.repeat",):
            return "an endless `itertools.repeat()`" if len(node.args) < 2 else None
        if name in knowledge.UNSIZED_ITERABLE_CALLS:
            return f"`{name}()`"
        function = ctx.index.resolve_function(name)
        summary = ctx.index.function(function) if function else None
        if summary is not None and summary.is_generator:
            return f"the generator `{summary.name}()`"
        # By the method name: the connection is often a parameter, so the receiver does not resolve.
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in knowledge.CURSOR_METHODS:
            return "a database cursor"
        return None
    resolved = ctx.resolve(node) or ""
    if resolved in ("open()", "io.open()"):
        return "a file"
    if resolved.endswith(".cursor()") or resolved.endswith(".execute()"):
        return "a database cursor"
    if resolved in ("sys.stdin",):
        return "`sys.stdin`"
    return None


def _single_binding(function: cst.FunctionDef, name: str) -> Optional[cst.BaseExpression]:
    """The value of ``name = <value>`` when that is the only binding of ``name`` in the function's own body."""
    values: list = []
    rebound = False

    class _Finder(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is function  # nested functions have their own locals

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            return False

        def visit_Assign(self, node: cst.Assign) -> None:
            nonlocal rebound
            for target in node.targets:
                if isinstance(target.target, cst.Name) and target.target.value == name:
                    if len(node.targets) == 1:
                        values.append(node.value)
                    else:
                        rebound = True
                elif _binds(target.target, name):
                    rebound = True

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            nonlocal rebound
            if isinstance(node.target, cst.Name) and node.target.value == name:
                if node.value is not None:
                    values.append(node.value)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            nonlocal rebound
            if _binds(node.target, name):
                rebound = True

        def visit_For(self, node: cst.For) -> None:
            nonlocal rebound
            if _binds(node.target, name):
                rebound = True

        def visit_AsName(self, node: cst.AsName) -> None:
            nonlocal rebound
            if _binds(node.name, name):
                rebound = True

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            nonlocal rebound
            if _binds(node.target, name):
                rebound = True

    walk(function, _Finder())
    if rebound or len(values) != 1:
        return None
    return values[0]


def _binds(target: cst.CSTNode, name: str) -> bool:
    if isinstance(target, cst.Name):
        return target.value == name
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_binds(element.value, name) for element in target.elements)
    if isinstance(target, cst.StarredElement):
        return _binds(target.value, name)
    return False


@register
class UnboundedTaskFanout(Rule):
    code = "BG303"
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    name = "unbounded-task-fanout"
    severity = Severity.WARNING
    summary = "A task or future is started per item of a stream with no bound on how many run at once."

    def is_relevant(self, unit) -> bool:
        # visit_Call: a per-item work start whose canonical name is a fan-out call
        return calls_any(unit, _fans_out)

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        if work_start(node, ctx, _per_item) is None:
            return
        name = ctx.resolve_call(node)
        if not name or not knowledge.FANOUT_CALLS.fullmatch(name):
            return  # an unknown receiver (``x.submit``, ``self.loop.create_task``) is not matched by name
        loop = _enclosing_stream_loop(ctx)
        if loop is None:
            return
        if _awaited_in_loop(node, loop, ctx):
            return  # one at a time: the loop waits for each before starting the next
        if _started_only_when_holder_empty(loop, ctx):
            return  # one at a time: started only while what holds it is empty
        if id(node) in left_after(loop):
            return  # started once, on the way out of the loop (a break, return or raise follows): not one per item
        if _is_bounded(loop, ctx):
            return
        if _work_starts_under_a_limiter(node, work_start(node, ctx, _per_item), ctx):
            return  # each task takes a semaphore before its work: at most that many run it at once
        what = "`async for` loop" if isinstance(loop, cst.For) and loop.asynchronous else (
            "`while` loop" if isinstance(loop, cst.While) else "loop over a stream"
        )
        ctx.report(
            self,
            node,
            f"`{short_name(name, 24)}()` is called once per item in this {what} with no bound on how many run at once",
            "A burst starts thousands of tasks that all hold memory and connections, and every one still "
            "running is lost at a stop. Hold an `asyncio.Semaphore` (or a bounded queue and a fixed set of workers), "
            "or check the number in flight before starting more.",
        )


def _per_item(start: knowledge.WorkStart) -> bool:
    return start.per_item


def _fans_out(canonical, method) -> bool:
    if not canonical or not knowledge.FANOUT_CALLS.fullmatch(canonical):
        return False
    return any(start.per_item and start.matches(canonical, method) for start in knowledge.WORK_STARTS)


def _awaited_in_loop(node: cst.Call, loop: cst.CSTNode, ctx: FileContext) -> bool:
    """Is the task or future this call starts awaited in the same pass of the loop? Either the call
    is under an ``await`` (``await loop.run_in_executor(...)``, ``await asyncio.wait_for(create_task(...), 5)``),
    or its result is held by a name or attribute the loop's body then awaits, directly or through
    another name bound to it (``t = create_task(...); waiter = asyncio.wait_for(asyncio.shield(t), 5);
    await waiter``; ``self._ping = create_task(ping(ws))`` and ``finally: self._ping.cancel(); await
    self._ping`` before the next connection)."""
    for ancestor in reversed(ctx.ancestors[:-1]):
        if ancestor is loop or isinstance(ancestor, (cst.FunctionDef, cst.Lambda)):
            break
        if isinstance(ancestor, cst.Await):
            return True
    holder = assigned_name(ctx)
    if holder is None:
        return False
    found = _AwaitedNames(holder)
    walk(loop.body, found)
    return found.awaited


def _started_only_when_holder_empty(loop: cst.CSTNode, ctx: FileContext) -> bool:
    """Is the start under an ``if`` (inside the loop) whose test requires the holder it is assigned
    to to be empty (``if outlet is None and done: outlet = create_task(...)``)? Then at most one
    runs at a time for that holder."""
    holder = assigned_name(ctx)
    if holder is None:
        return False
    for ancestor in reversed(ctx.ancestors[:-1]):
        if ancestor is loop or isinstance(ancestor, (cst.FunctionDef, cst.Lambda)):
            return False
        if isinstance(ancestor, cst.If) and _requires_empty(ancestor.test, holder):
            return True
    return False


def _requires_empty(test: cst.BaseExpression, holder: str) -> bool:
    """``holder is None``, ``not holder``, or either as a conjunct of ``and``."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _requires_empty(test.left, holder) or _requires_empty(test.right, holder)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return dotted_name(test.expression) == holder
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        return isinstance(target.operator, cst.Is) and is_none(target.comparator) and dotted_name(test.left) == holder
    return False


def _holds(value: Optional[cst.BaseExpression], names: set) -> bool:
    """Is the value one of the names (or attributes), or a call handed one of them
    (``asyncio.shield(t)``, ``asyncio.wait_for(t, 5)``, ``asyncio.gather(t, u)``), at any depth?"""
    if isinstance(value, (cst.Name, cst.Attribute)):
        return dotted_name(value) in names
    if isinstance(value, cst.Call):
        return any(_holds(arg.value, names) for arg in value.args)
    return False


class _AwaitedNames:  # (walked by syntax/walk.py)
    """Follows the names bound to a task in the loop's body (``alias = task``, ``alias =
    asyncio.wait_for(task, 5)``, in source order) and notes whether one of them is awaited."""

    def __init__(self, name: str) -> None:
        self.names = {name}
        self.awaited = False

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_Lambda(self, node) -> bool:
        return False

    def leave_Assign(self, node: cst.Assign) -> None:
        if _holds(node.value, self.names):
            self.names.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))

    def leave_AnnAssign(self, node: cst.AnnAssign) -> None:
        if isinstance(node.target, cst.Name) and _holds(node.value, self.names):
            self.names.add(node.target.value)

    def visit_Await(self, node: cst.Await) -> None:
        if _holds(node.expression, self.names):
            self.awaited = True


def _enclosing_stream_loop(ctx: FileContext) -> Optional[cst.CSTNode]:
    """The nearest loop around this call, if it runs over a stream (not a sized collection)."""
    for ancestor in reversed(ctx.ancestors[:-1]):
        if isinstance(ancestor, (cst.FunctionDef, cst.Lambda)):
            return None
        if isinstance(ancestor, cst.For):
            if ancestor.asynchronous is not None:
                return ancestor
            iterable = ancestor.iter
            target = ctx.resolve(iterable) or ""
            if knowledge.STREAM_CONSUMERS.fullmatch(target):
                return ancestor
            if isinstance(iterable, cst.Call) and knowledge.STREAM_CONSUMERS.fullmatch(ctx.resolve_call(iterable) or ""):
                return ancestor
            return None
        if isinstance(ancestor, cst.While):
            return ancestor if is_constant_true(ancestor.test) else None
    return None


class _Identifiers:  # (walked by syntax/walk.py)
    """Every identifier below a node (names, attribute names, keyword and parameter names) and the
    names of the builtins it calls: what the code says, never its comments or strings."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.called: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name):
            self.called.add(node.func.value)


def _identifiers(node: cst.CSTNode) -> _Identifiers:
    found = _Identifiers()
    walk(node, found)
    return found


def _is_bounded(loop: cst.CSTNode, ctx: FileContext) -> bool:
    """Does the loop (or the function around it) hold a semaphore or check the number in flight?"""
    scope = ctx.function_node or loop
    in_loop = _identifiers(loop)
    if in_loop.called & knowledge.FANOUT_BOUND_CALLS or any(knowledge.FANOUT_BOUND_WORDS.search(n) for n in in_loop.names):
        return True
    if scope is not loop:
        return any(knowledge.FANOUT_LIMITERS.search(n) for n in _identifiers(scope).names)
    return False


def _work_starts_under_a_limiter(node: cst.Call, start: knowledge.WorkStart, ctx: FileContext) -> bool:
    """Does the coroutine function this call starts (``create_task(self.scan(item))``,
    ``tg.start_soon(scan, item)``), a project function of this module, take a semaphore or a
    limiter before anything else in it suspends: its first ``await``, ``async with`` or ``async for``
    is ``async with <limiter>:`` around work that waits (an empty block bounds nothing), or an
    ``await`` of a coroutine function of the module that starts so (two calls deep at most)? Then
    the tasks pile up, but no more than the limiter allows do their work at once: the fan-out is
    bounded inside the task (what follows the release leaves the limiter at its pace)."""
    keyword, position = start.func or ("", 0)
    value = argument(node, keyword, position) if keyword else None
    if value is None:
        positional = [arg.value for arg in node.args if arg.keyword is None and arg.star == ""]
        value = positional[position] if len(positional) > position else None
    if start.awaitable:
        value = value.func if isinstance(value, cst.Call) else None
    if value is None:
        return False
    qualname = ctx.index.resolve_function(ctx.index.canonical(call_target(value, ctx.summary.resolver(ctx.function))))
    return _starts_under_a_limiter(qualname, ctx, 0)


def _starts_under_a_limiter(qualname: Optional[str], ctx: FileContext, depth: int) -> bool:
    function = _module_functions(ctx).get(qualname or "")
    if function is None or function.asynchronous is None or depth > 2:
        return False
    resolver = ctx.summary.resolver(ctx.summary.functions.get(qualname))
    for statement in function.body.body:
        if not any(_suspends(found) for found in find_all(statement, _waits())):
            continue  # an assignment, a log line: nothing waits before it
        if isinstance(statement, cst.With):
            if statement.asynchronous is None or not any(_is_limiter(item.item, resolver, ctx) for item in statement.items):
                return False
            return any(_suspends(found) for found in find_all(statement.body, _waits()))
        awaited = _awaited_call(statement)
        if awaited is None:
            return False
        callee = ctx.index.resolve_function(ctx.index.canonical(call_target(awaited.func, resolver)))
        return _starts_under_a_limiter(callee, ctx, depth + 1)
    return False


def _waits() -> tuple:
    return (cst.Await, cst.With, cst.For, cst.CompFor)


def _suspends(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Await) or getattr(node, "asynchronous", None) is not None


def _awaited_call(statement: cst.CSTNode) -> Optional[cst.Call]:
    """The call the first waiting part of a statement awaits as a whole: ``await f()``,
    ``x = await f()``, ``return await f()``."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return None
    small = next((small for small in statement.body if any(_suspends(n) for n in find_all(small, _waits()))), None)
    value = small.value if isinstance(small, (cst.Expr, cst.Assign, cst.AnnAssign, cst.Return)) else None
    if isinstance(value, cst.Await) and isinstance(value.expression, cst.Call):
        return value.expression
    return None


def _is_limiter(item: cst.BaseExpression, resolver, ctx: FileContext) -> bool:
    """A semaphore or a capacity limiter: by its type where bgcheck knows it (``asyncio.Semaphore()``),
    else by its name (``self.semaphore``, ``limiter``: handed in by whoever made the object)."""
    if isinstance(item, cst.Call):
        return False  # ``async with session.get(url)``: a request, not a limiter
    made = ctx.index.canonical(call_target_of_value(item, resolver)) or ""
    if knowledge.FANOUT_LIMITERS.search(made):
        return True
    name = item.attr.value if isinstance(item, cst.Attribute) else item.value if isinstance(item, cst.Name) else ""
    return knowledge.FANOUT_LIMITER_NAMES.search(name) is not None


_FUNCTIONS: dict = {}


def _module_functions(ctx: FileContext) -> dict:
    """The module's functions and methods by qualified name (memoised per module)."""
    cached = _FUNCTIONS.get(id(ctx.module))
    if cached is not None and cached[0] is ctx.module:
        return cached[1]
    found: dict = {}

    def collect(body, prefix: str) -> None:
        for statement in body:
            if isinstance(statement, cst.FunctionDef):
                found[f"{prefix}.{statement.name.value}"] = statement
            elif isinstance(statement, cst.ClassDef):
                collect(statement.body.body, f"{prefix}.{statement.name.value}")

    collect(ctx.module.body, ctx.summary.module)
    if len(_FUNCTIONS) > 64:
        _FUNCTIONS.clear()
    _FUNCTIONS[id(ctx.module)] = (ctx.module, found)
    return found


@register
class WorkDroppedWhenFull(Rule):
    code = "BG304"
    name = "work-dropped-when-full"
    severity = Severity.WARNING
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    summary = "`except queue.Full` / `asyncio.QueueFull` that drops the item silently."

    def is_relevant(self, unit) -> bool:
        # an except clause naming a queue's Full, or contextlib.suppress() of one
        if any(name in knowledge.QUEUE_FULL_EXCEPTIONS for name in values_caught(unit)):
            return True
        return calls_any(unit, lambda canonical, _method: canonical == "contextlib.suppress")

    def visit_ExceptHandler(self, node: cst.ExceptHandler, ctx: FileContext) -> None:
        self._check(node, ctx)

    def visit_ExceptStarHandler(self, node, ctx: FileContext) -> None:
        self._check(node, ctx)

    def _check(self, node, ctx: FileContext) -> None:
        if node.type is None:
            return
        elements = node.type.elements if isinstance(node.type, cst.Tuple) else [node.type]
        names = [ctx.resolve(e.value if isinstance(e, cst.Element) else e) for e in elements]
        caught = [n for n in names if n in knowledge.QUEUE_FULL_EXCEPTIONS]
        if not caught:
            return
        if always_raises(node.body, ctx.is_exit_call) or _records(node.body, ctx):
            return
        try_node = ctx.parent()
        puts = _puts(try_node.body, ctx) if isinstance(try_node, (cst.Try, cst.TryStar)) else []
        if puts and all(not _can_drop_work(call, ctx) for call in puts):
            return  # a queue with no bound is never full; a wake-up sentinel is not work
        if puts and _retries_the_put(node, try_node, ctx):
            ctx.silence(self, node, "the loop around it tries the put again until it succeeds: nothing is dropped")
            return
        ctx.report(
            self,
            node,
            f"`except {caught[0]}` drops the item without a trace",
            "The work is lost and nobody can tell how much. "
            "Re-raise (reject upstream), block with a timeout, or at least log and count the dropped item.",
            end_node=node.type,
        )

    def visit_With(self, node: cst.With, ctx: FileContext) -> None:
        for item in node.items:
            call = item.item
            if isinstance(call, cst.Call) and ctx.resolve_call(call) == "contextlib.suppress":
                names = [ctx.resolve(arg.value) for arg in call.args]
                caught = [n for n in names if n in knowledge.QUEUE_FULL_EXCEPTIONS]
                if caught:
                    ctx.report(
                        self,
                        call,
                        f"`suppress({caught[0]})` drops the item without a trace when the queue is full",
                        "The work is lost and nobody can tell how much. Block with a timeout, reject upstream, or log "
                        "and count it.",
                    )


def _retries_the_put(handler, try_node, ctx: FileContext) -> bool:
    """Back-pressure, not a drop: the ``try`` is in a loop that leaves once the put succeeds (the
    ``try`` body ends with ``break`` or ``return``) and the handler goes round again (``continue``,
    or falls through to a sleep) or re-raises (once a deadline has passed: the caller is told):
    ``while True: try: q.put_nowait(x); break except Full: pass``."""
    inside_loop = False
    for node in reversed(ctx.ancestors[:-2]):
        if isinstance(node, (cst.For, cst.While)):
            inside_loop = True
            break
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            break
    if not inside_loop or not exits(handler.body, ctx.is_exit_call) <= {FALL, CONTINUE, RAISE, CONVERT}:
        return False
    statements = list(try_node.body.body) if isinstance(try_node.body, cst.IndentedBlock) else []
    smalls = [small for line in statements[-1:] if isinstance(line, cst.SimpleStatementLine) for small in line.body if not is_string_statement(small)]
    return bool(smalls) and isinstance(smalls[-1], (cst.Break, cst.Return))


def _puts(body: cst.CSTNode, ctx: FileContext) -> list:
    """The ``x.put(...)`` / ``x.put_nowait(...)`` calls in a ``try`` body (not in nested functions)."""
    return [
        node
        for node in find_all(body, (cst.Call,))
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in knowledge.QUEUE_PUT_METHODS and node.args
    ]


def _can_drop_work(call: cst.Call, ctx: FileContext) -> bool:
    """Can this put raise Full and so lose an item of work? Not when the queue has no bound (it is
    never full: BG301 is the finding there), nor when the item is a wake-up sentinel."""
    item = argument(call, "item", 0)
    if item is not None and ctx.index.is_sentinel(ctx.to_ir(item)):
        return False
    return ctx.index.queue_is_unbounded(ctx.to_ir(call.func.value)) is not True


def _records(body: cst.CSTNode, ctx: FileContext) -> bool:
    """Does the handler log, count, hand the item on, or reject upstream (``return <value>``)?"""
    found = False

    class _Finder(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            func = node.func
            name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
            if knowledge.RECORDING_CALLS.search(name) or name == "print":
                found = True

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            nonlocal found
            found = True  # a counter

        def visit_Return(self, node: cst.Return) -> None:
            nonlocal found
            if node.value is not None and not is_none(node.value):
                found = True  # the caller is told

    walk(body, _Finder())
    return found
