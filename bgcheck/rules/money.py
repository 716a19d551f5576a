"""BG6xx: work that must not be lost.

Money moved by work that lives only in memory (a task, a pool, a thread)
is lost at a stop with no error anywhere; a message published inside a
transaction announces something that may then be rolled back.
"""

from __future__ import annotations

from typing import Optional

from bgcheck.syntax.lazy import cst

from bgcheck import knowledge
from bgcheck.model import transactions
from bgcheck.model.celery_config import truthy
from bgcheck.diagnostics import MAX_MESSAGE, Applicability, Edit, Fix, Location, Severity, clip, short_name
from bgcheck.syntax.cst_ir import dotted_name
from bgcheck.syntax.ir import ref_name
from bgcheck.rules.base import Rule, register
from bgcheck.rules.edits import decorator_keyword_set, keyword_set, name_for_import
from bgcheck.rules.calls import argument, assigned_name, is_waited_for, receiver_is, starts_with, work_start
from bgcheck.rules.relevance import bound_names, calls_any, file_calls
from bgcheck.syntax.rows import locks_rows
from bgcheck.model.project import breadth_first
from bgcheck.syntax.walk import find_all, walk
from bgcheck.rules.checker import FileContext


def _related(model, qualname: str) -> tuple:
    return tuple(
        Location(link.path, link.line or 1, link.column, link.line or 1, link.column, f"-> {link.name}")
        for link in model.chains[qualname]
    )


def _function_of(node: Optional[cst.BaseExpression], ctx: FileContext) -> Optional[str]:
    """The project function run by a job argument: ``f``, ``f(...)`` (a coroutine), ``partial(f, ...)``,
    ``lambda: f(...)``."""
    if node is None:
        return None
    if isinstance(node, cst.Lambda):  # ``target=lambda: charge(order)`` runs what its body calls
        return _function_of(node.body, ctx) if isinstance(node.body, cst.Call) else None
    if isinstance(node, cst.Call):
        target = ctx.resolve_call(node)
        if (target in knowledge.PARTIALS or target in knowledge.THREAD_RUNNERS) and node.args:
            return _function_of(node.args[0].value, ctx)
        return ctx.index.resolve_function(target)
    return ctx.index.resolve_function(ctx.resolve(node))


def _waited_for(ctx: FileContext, variable: Optional[str], how: str) -> bool:
    """Is the spawned work waited for later in the same function (await, gather, result(), join())?"""
    parent = ctx.parent()
    if isinstance(parent, cst.Await):
        return True
    if isinstance(parent, cst.Attribute) and parent.attr.value in ("result", "join"):
        return True
    if how == "results" and _consumed_here(ctx):
        return True
    if not variable:
        return False
    scope = ctx.function_node or ctx.module
    if how == "results":
        return _iterated(scope, variable)
    return is_waited_for(scope, variable)


def _iterated(scope: cst.CSTNode, variable: str) -> bool:
    """``Executor.map``'s results iterated: ``for r in results``, ``list(results)``, ``yield from results``
    (iterating them waits for each call in turn)."""
    found = False

    class _Finder(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> None:
            nonlocal found
            found = found or starts_with(node.iter, variable)

        def visit_CompFor(self, node: cst.CompFor) -> None:
            nonlocal found
            found = found or starts_with(node.iter, variable)

        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            if isinstance(node.func, cst.Name) and node.func.value in knowledge.ITERATOR_CONSUMERS and node.args:
                found = found or (not node.args[0].keyword and starts_with(node.args[0].value, variable))

        def visit_From(self, node: cst.From) -> None:
            nonlocal found
            found = found or starts_with(node.item, variable)

    walk(scope, _Finder())
    return found


def _consumed_here(ctx: FileContext) -> bool:
    """Is the call's iterator result iterated where it stands (``for x in pool.map(...)``, ``list(pool.map(...))``)?"""
    node, parent = ctx.parent(0), ctx.parent()
    if isinstance(parent, (cst.For, cst.CompFor)) and parent.iter is node:
        return True
    if isinstance(parent, cst.Arg) and not parent.keyword and not parent.star:
        call = ctx.parent(2)
        return isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value in knowledge.ITERATOR_CONSUMERS
    return False


def _in_own_task_group(node: cst.Call, ctx: FileContext) -> bool:
    receiver = dotted_name(node.func.value) if isinstance(node.func, cst.Attribute) else None
    if not receiver:
        return False
    for ancestor in reversed(ctx.ancestors[:-1]):
        if isinstance(ancestor, cst.With):
            for item in ancestor.items:
                # ``async with TaskGroup() as tg:`` or ``async with tg:`` (a group made beforehand)
                entered = dotted_name(item.asname.name) if item.asname is not None else dotted_name(item.item)
                if entered == receiver:
                    return True
        if isinstance(ancestor, cst.FunctionDef):
            break
    return False


@register
class MoneyInFireAndForget(Rule):
    code = "BG601"
    name = "money-in-fire-and-forget"
    severity = Severity.ERROR
    reads = ("money",)
    summary = "A money-moving call runs in a fire-and-forget context (a task, pool, thread or background task) that a stop loses."

    def is_relevant(self, unit) -> bool:
        # visit_Call: a fire-and-forget work start, by its canonical name or its method
        return bool(unit.index.money.chains) and calls_any(unit, _starts_fire_and_forget)

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        start = work_start(node, ctx, _fire_and_forget)
        if start is None:
            return
        if start.task_group and _in_own_task_group(node, ctx):
            return  # the caller's own ``async with TaskGroup()`` awaits its tasks before the block ends
        # A TaskGroup held elsewhere (an attribute, a parameter, a long-lived group) is not
        # awaited by the caller: its tasks run on after the caller returns, like create_task's.
        method = node.func.attr.value if isinstance(node.func, cst.Attribute) else ""
        context = start.label or f"`{method or ctx.resolve_call(node)}()`"
        function, how = _function_of(argument(node, *start.func), ctx), start.handle
        if function is None or not ctx.index.money.moves_money(function):
            return
        if how is not None and _waited_for(ctx, assigned_name(ctx), how):
            return
        model = ctx.index.money
        ctx.report(
            self,
            node,
            _fire_and_forget_message(context, model.chains[function][-1].name),
            f"{context} runs {model.chain_text(function)}, and nothing waits for "
            "it or writes down that it is owed. A stop (deploy, scale-in, crash) loses it with no error anywhere: the "
            "charge may be made and never recorded, or never made at all. Record the intent durably first (a row, "
            "an outbox, a durable queue such as a Celery task with acks_late) and process it from there.",
            related=_related(model, function),
        )


def _fire_and_forget_message(context: str, money_call: str) -> str:
    context = clip(context, 34)
    room = MAX_MESSAGE - len(context) - len("Fire-and-forget  moves money (): nothing waits for it")
    if len(money_call) > room:  # keep the provider and the method: ``stripe.….payment_intents.create``
        parts = money_call.split(".")
        money_call = clip(f"{parts[0]}.\u2026.{'.'.join(parts[-2:])}", room)
    return f"Fire-and-forget {context} moves money ({money_call}): nothing waits for it"


def _fire_and_forget(start: knowledge.WorkStart) -> bool:
    return start.fire_and_forget


def _discarded(start: knowledge.WorkStart) -> bool:
    return start.discarded is not None


def _starts_fire_and_forget(canonical, method) -> bool:
    return any(start.fire_and_forget and start.matches(canonical, method) for start in knowledge.WORK_STARTS)


def _discarded_methods(kind: str) -> frozenset:
    """The method names (or plain names) a call whose dropped result is of this kind ("task" or
    "future") is written with (visit_Call of BG602 and BG605)."""
    return frozenset(method for start in knowledge.WORK_STARTS if start.discarded == kind for method in start.methods)


class _ResultDiscarded(Rule):
    """What BG602 and BG605 share: the task or future a start call returns, thrown away. Each rule
    reports its own kind (``WorkStart.discarded``): an asyncio task can be collected mid-run, an
    executor's future only loses its exception, so they are measured, and placed, apart."""

    discarded = ""  # "task" (BG602, BG606) or "future" (BG605)
    # For tasks: True for the dropped task bgcheck is sure loses something (BG602), False for the
    # rest (BG606); None: no such split (BG605).
    sure: Optional[bool] = None
    methods: frozenset = frozenset()
    reads = ("never_suspending",)

    def is_relevant(self, unit) -> bool:
        # visit_Call: a call written with a discarded start's method name (``x.create_task(...)``, or a
        # plain ``create_task(...)``: resolved, only the names the file binds keep how it was written)
        if not any(method in unit.text for method in self.methods):
            return False
        return bool(file_calls(unit).called_names() & self.methods or bound_names(unit) & self.methods)

    def visit_Call(self, call: cst.Call, ctx: FileContext) -> None:
        if not isinstance(call.func, (cst.Attribute, cst.Name)):
            return
        method = call.func.attr.value if isinstance(call.func, cst.Attribute) else call.func.value
        start = next((s for s in knowledge.WORK_STARTS if _discarded(s) and method in s.methods), None)
        if start is None or start.discarded != self.discarded:
            return
        how = _dropped(ctx)
        if how is None:
            return
        name = ctx.resolve_call(call) or ""
        if isinstance(call.func, cst.Name):
            # A plain call is the library's only when its name is imported from it (``from asyncio
            # import create_task``): not a local ``create_task = getattr(manager, "create_task")``, nor
            # the project's own function of that name (a task manager of its own, which may keep it).
            start = next((s for s in knowledge.WORK_STARTS if _discarded(s) and method in s.methods and s.pattern and "." in name and s.regex.fullmatch(name)), None)
            if start is None or ctx.index.resolve_function(name) is not None:
                return
        if start.task_group and method == "create_task" and (
            knowledge.TASK_GROUP.fullmatch(name.rsplit(".", 1)[0]) or _in_own_task_group(call, ctx)
        ):
            return  # a TaskGroup keeps its tasks and raises their errors
        if start.receiver is not None and not receiver_is(start.receiver, call, ctx):
            return
        if start.task_group and isinstance(call.func, cst.Attribute):
            # asyncio's and the event loop's own: another object's create_task may return anything
            receiver = ctx.resolve(call.func.value) or ""
            if not (name.startswith("asyncio.") or "loop" in receiver.lower() or "loop" in (dotted_name(call.func.value) or "").lower()):
                return  # some other object's create_task
        nothing_lost = _nothing_to_lose(call, start, ctx)
        if nothing_lost is not None:
            ctx.silence(self, call, nothing_lost)
            return
        losing, unsure = _loses_io_unseen(call, start, ctx) if self.sure is not None else (None, "")
        if self.sure is not None and (losing is not None) != self.sure:
            if self.sure:  # --verbose says why BG602 left it (to BG606, in preview)
                ctx.silence(self, call, f"not sure the task loses anything: {unsure}")
            return
        self._report(call, ctx, method, how, losing)

    def _report(self, call: cst.Call, ctx: FileContext, method: str, how: str, losing: Optional[str]) -> None:
        keep = (
            "Keep a reference (a set you discard from in a done-callback), await it, or add a done-callback that logs "
            "failures."
        )
        if losing is not None:
            coroutine = losing.lstrip("?")
            ctx.report(
                self,
                call,
                f"The task of `{short_name(coroutine)}()` is {how}: its failure is never seen",
                f"`{coroutine}()` awaits calls to other services and no catch-all keeps their errors, so when one "
                "fails, the task ends with an exception nobody retrieves, and the work is lost without a trace. The "
                "event loop keeps only a weak reference, so the task can also be garbage-collected mid-run. " + keep,
            )
            return
        ctx.report(
            self,
            call,
            f"The {self.discarded} returned by `{method}()` is {how}",
            (
                "The event loop keeps only a weak reference, so the task can be garbage-collected mid-run, and its "
                if self.discarded == "task"
                else "Its "
            )
            + "exception is never seen. " + keep,
        )


def _loses_io_unseen(call: cst.Call, start: knowledge.WorkStart, ctx: FileContext) -> tuple[Optional[str], str]:
    """(the project coroutine whose dropped task fails unseen, "") or (None, why bgcheck is not
    sure). Sure when the task runs a call of project coroutines (each one the call may run: an
    override, the one async function of a name) from which an error of a library call reaches the
    task, through no catch-all that keeps it, and which await at least two library calls (directly
    or through the coroutines they await): work that talks to other services, whose failure nobody
    will see. Not where no event loop runs (a function only atexit calls) or where the loop keeps
    every task (MicroPython's asyncio)."""
    handed = argument(call, *start.func) if start.func is not None else None
    if not isinstance(handed, cst.Call):
        return None, "the task runs an awaitable made elsewhere: bgcheck cannot tell what it does"
    written = dotted_name(handed.func)
    target = ctx.resolve_call(handed) or (f"?{written}" if written else None)
    shown = f"`{short_name((target or '?').lstrip('?'))}()`"
    index = ctx.index
    if not index.coroutine_candidates(target):
        return None, f"bgcheck cannot tell which coroutine {shown} runs (a library's, or a method several classes define)"
    losing = index.task_losing_io(target)
    if losing == 0:
        return None, f"{shown} lets no error of a call to another service out (a catch-all keeps them, in it or in an override of it, or it makes none)"
    if losing < knowledge.LOSING_IO_ENOUGH:
        return None, f"{shown} makes a single call to another service"
    if (ctx.function_qualname or "") in index.shutdown.atexit_only:
        return None, "it runs only at exit, where no event loop runs"
    if any(module.split(".")[0] in knowledge.TASK_KEEPING_RUNTIMES for module in ctx.summary.imports.values()):
        return None, "MicroPython's asyncio keeps every task it runs"
    return target, ""


class _TaskDiscarded(_ResultDiscarded):
    """BG602 and BG606: a dropped asyncio task, split on whether its loss is sure (``sure``)."""

    discarded = "task"
    methods = _discarded_methods("task")
    reads = ("never_suspending", "losing_io", "shutdown")


@register
class TaskResultDiscarded(_TaskDiscarded):
    code = "BG602"
    # Default: only the dropped tasks whose coroutine's calls to other services fail unseen
    # (_loses_io_unseen), which the held-out half of the ecosystem check judges right well above
    # the bar (scripts/ecosystem/report.md); every other dropped task is BG606's, in preview.
    preview = False
    name = "task-result-discarded"
    severity = Severity.WARNING
    summary = "The task returned by create_task / ensure_future is thrown away, and its coroutine's calls to other services fail unseen."
    sure = True


@register
class TaskResultDiscardedUnproven(_TaskDiscarded):
    code = "BG606"
    split_from = "BG602"
    # The dropped tasks BG602 is not sure lose anything: a coroutine that keeps its own errors,
    # does no I/O, only pauses, or runs code bgcheck cannot name. Held-out precision far below the
    # bar (scripts/ecosystem/report.md): most are judged debatable on harm.
    preview = True
    name = "task-result-discarded-unproven"
    severity = Severity.WARNING
    summary = "The task returned by create_task / ensure_future is thrown away, and its coroutine's failure may not matter."
    sure = False


@register
class ExecutorFutureDiscarded(_ResultDiscarded):
    code = "BG605"
    split_from = "BG602"
    preview = True  # split from BG602; precision on real projects below the bar: see scripts/ecosystem/report.md
    name = "executor-future-discarded"
    severity = Severity.WARNING
    summary = "The future returned by Executor.submit / run_in_executor is thrown away: its exception is never seen."
    discarded = "future"
    methods = _discarded_methods("future")


def _nothing_to_lose(call: cst.Call, start: knowledge.WorkStart, ctx: FileContext) -> Optional[str]:
    """Why the dropped task or future of ``call`` loses nothing, or None. A task of a coroutine with
    no suspension point runs to its end in the task's first step, held by the loop until then, and
    an exception it raises is reported when the finished task is freed. An executor holds its futures
    till they run: what a dropped one loses is its exception, and a function that keeps its errors
    (catches every Exception, never re-raises) leaves it none; a dropped task can still be collected
    mid-run whatever its coroutine catches."""
    if start.func is None:
        return None
    handed = argument(call, *start.func)
    function = _function_of(handed, ctx)
    summary = ctx.index.function(function) if function else None
    if summary is None:
        return None
    if start.discarded == "task":
        if isinstance(handed, cst.Call) and not summary.is_generator and function in ctx.index.never_suspending:
            return f"`{summary.name}()` never suspends: the task runs to its end in one step, held by the loop"
        return None
    if start.discarded != "future":
        return None
    if isinstance(handed, cst.Call) and not summary.is_async and ctx.index.resolve_function(ctx.resolve_call(handed)) == function:
        # ``submit(build_runner(f))``: the executor runs what the factory returns
        made = ctx.index.resolve_function(ref_name(summary.returns))
        summary = ctx.index.function(made) if made else None
    if summary is not None and ctx.index.keeps_its_errors(summary):
        return f"`{summary.name}()` catches every Exception and never re-raises: the dropped future holds no error"
    return None


def _dropped(ctx: FileContext) -> Optional[str]:
    """How the value of the call being visited is lost, or None if it is kept (or not known to be lost).

    Lost: a bare statement; an element of a list, tuple or set display, or of a list or set
    comprehension, that is itself a bare statement; a truth value only (the test of ``if``, ``while``, a conditional expression, a
    comprehension's ``if``, ``not``); a local name nothing reads. An element of a generator
    expression that nothing iterates creates no task at all."""
    node = ctx.parent(0)
    level = 1
    parent = ctx.parent(level)
    # through displays and list / set comprehensions whose value is itself dropped (a list
    # comprehension runs at once; a generator expression only when iterated)
    while isinstance(parent, cst.Element) or (isinstance(parent, (cst.ListComp, cst.SetComp)) and parent.elt is node):
        if isinstance(parent, cst.Element):
            display = ctx.parent(level + 1)
            if not isinstance(display, (cst.List, cst.Tuple, cst.Set)):
                return None
            node, level = display, level + 2
        else:
            node, level = parent, level + 1
        parent = ctx.parent(level)
    if isinstance(parent, cst.Expr):
        return "thrown away" if level == 1 else "thrown away with the display it is in"
    if isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.CompIf)) and getattr(parent, "test", None) is node:
        return "used only as a truth value and then dropped"
    if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
        return "used only as a truth value and then dropped"
    if level == 1 and isinstance(parent, (cst.Assign, cst.AnnAssign, cst.NamedExpr)):
        target = _single_name_target(parent)
        if target is not None and ctx.function_node is not None and not _name_read(ctx.function_node, target):
            return f"kept only in the local `{clip(target, 30)}`, which nothing reads"
    return None


def _single_name_target(node) -> Optional[str]:
    if isinstance(node, cst.Assign):
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            return node.targets[0].target.value
        return None
    target = node.target
    return target.value if isinstance(target, cst.Name) else None


def _name_read(function: cst.FunctionDef, name: str) -> bool:
    """Is ``name`` read anywhere in the function (nested functions and lambdas included, since a
    closure keeps it), or made reachable some other way (``global``/``nonlocal``, ``locals()``)?"""
    stores: set[int] = set()
    read = False

    class _Finder(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    stores.add(id(target.target))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            if isinstance(node.target, cst.Name):
                stores.add(id(node.target))

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            if isinstance(node.target, cst.Name):
                stores.add(id(node.target))

        def visit_For(self, node: cst.For) -> None:
            if isinstance(node.target, cst.Name):
                stores.add(id(node.target))

        def visit_AsName(self, node: cst.AsName) -> None:
            if isinstance(node.name, cst.Name):
                stores.add(id(node.name))

        def visit_Global(self, node) -> None:
            nonlocal read
            read = read or any(item.name.value == name for item in node.names)

        def visit_Nonlocal(self, node) -> None:
            nonlocal read
            read = read or any(item.name.value == name for item in node.names)

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)
            return False  # ``x.name`` is not the local ``name``

        def visit_Arg(self, node: cst.Arg) -> bool:
            node.value.visit(self)
            return False  # a keyword is not a read

        def visit_Name(self, node: cst.Name) -> None:
            nonlocal read
            if node.value == name and id(node) not in stores:
                read = True
            if node.value in ("locals", "vars"):
                read = True

    walk(function.body, _Finder())
    for param in (*function.params.params, *function.params.kwonly_params, *function.params.posonly_params):
        if param.name.value == name:
            return True
    return read


@register
class MoneyTaskAcksEarly(Rule):
    code = "BG603"
    fixable = "unsafe"
    name = "money-task-acks-early"
    severity = Severity.ERROR
    reads = ("celery_config", "job_code", "jobs", "money")
    summary = "A Celery task that moves money acknowledges its message before it runs (no acks_late)."

    def is_relevant(self, unit) -> bool:
        return unit.has_job_code and bool(unit.index.money.chains)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: FileContext) -> None:
        qualname = ctx.function_qualname
        model = ctx.index.money
        if not model.moves_money(qualname):
            return
        for job in ctx.index.job_roots.get(qualname or "", ()):
            if job.framework != "Celery":
                continue
            option = job.options.get("acks_late")
            if option is not None:
                if ctx.index.fold(option) is True:
                    return
            else:
                config = ctx.index.celery_config
                if config is not None and truthy(config.get("task_acks_late")):
                    return
            ctx.report(
                self,
                node.name,
                f"Celery task `{short_name(job.name)}` moves money and is acknowledged before it runs (no acks_late)",
                f"Celery task `{job.name}` moves money ({model.chain_text(qualname)}) and acknowledges its message "
                "when a worker takes it, before it runs: a worker killed mid-task (deploy, OOM) loses the task for good. "
                "Set `acks_late=True` (and `reject_on_worker_lost=True`: without it, a SIGKILLed child is still "
                "acknowledged) and make the task idempotent (an idempotency key), since it may now run twice.",
                related=_related(model, qualname),
                fix=_acks_late_fix(node, job, ctx),
            )
            return


def _acks_late_fix(node: cst.FunctionDef, job, ctx: FileContext) -> Optional[Fix]:
    """BG603's fix: ``acks_late=True`` in the task's decorator (``@app.task`` -> ``@app.task(acks_late=True)``).
    Unsafe: a message is now redelivered when its worker dies mid-task, so the task can run twice
    and must be idempotent. None when the task is not made by a decorator of this function, or when
    ``acks_late`` is given a value bgcheck cannot read (a name: the author's switch, not a slip)."""
    if not job.via.startswith("decorator "):
        return None
    spelled_as = job.via[len("decorator ") :]
    wanted = {spelled_as, ctx.index.canonical(spelled_as)}
    for decorator in node.decorators:
        expression = decorator.decorator
        name = ctx.resolve_call(expression) if isinstance(expression, cst.Call) else ctx.resolve(expression)
        if name not in wanted:
            continue
        given = argument(expression, "acks_late") if isinstance(expression, cst.Call) else None
        if given is not None and ctx.fold(given) is not False:
            return None
        edit = decorator_keyword_set(ctx, decorator, "acks_late", "True")
        return Fix(Applicability.UNSAFE, "Set `acks_late=True` on the task", (edit,)) if edit is not None else None
    return None


def _publish_name(node: cst.Call, ctx: FileContext) -> Optional[str]:
    """How to name a publishing call, or None if this call does not publish."""
    func = node.func
    if not isinstance(func, cst.Attribute):
        return None
    return transactions.publish_label(ctx.index, ctx.resolve_call(node), func.attr.value, dotted_name(func.value), ctx.resolve(func.value))


def _resends_itself(node: cst.Call, ctx: FileContext) -> bool:
    """``send_webhook.apply_async(args=(logentry_id, retry_count + 1), countdown=60)`` inside the task
    ``send_webhook`` itself: a retry, whose message carries only what this run was handed (its
    parameters, constants). Those rows were committed before the run began, so the message names
    nothing this transaction wrote. ``apply_async``'s options (``countdown=``, ``queue=``) are not
    the task's arguments and are not read."""
    values = _task_arguments(node)
    function = ctx.function
    if values is None or function is None or _sent_task(node, ctx) != function.qualname:
        return False
    params = set(function.params)
    for value in values:
        for name in find_all(value, (cst.Name,)):
            if name.value not in params and name.value not in ("None", "True", "False"):
                return False
    return True


def _nudges_a_scheduled_task(node: cst.Call, ctx: FileContext) -> bool:
    """``support_status_update.delay()`` (or ``apply_async(countdown=10)``: options only) of a task
    that a schedule also runs (a Celery beat entry, ``add_periodic_task``): sent with no arguments,
    the message names no row, so a rollback leaves only an extra run of a task that re-reads
    everything; a run before the commit misses what the next scheduled run then reads. A task
    sent an argument, or one no schedule runs, is still reported."""
    if _task_arguments(node) != []:
        return False
    task = _sent_task(node, ctx)
    return transactions.runs_on_a_schedule(ctx.index, task)


def _task_arguments(node: cst.Call) -> Optional[list]:
    """What a task send hands the task: every argument of ``delay(...)``; of ``apply_async(...)``,
    its ``args=``/``kwargs=`` and its first two positional arguments (the same two), never its
    options (``countdown=``, ``queue=``...). None for any other call."""
    func = node.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in knowledge.TASK_SEND_METHODS:
        return None
    if func.attr.value != "apply_async":
        return [a.value for a in node.args]
    return [a.value for a in node.args if a.keyword is not None and a.keyword.value in ("args", "kwargs")] + [
        a.value for a in node.args if a.keyword is None
    ][:2]


def _sent_task(node: cst.Call, ctx: FileContext) -> Optional[str]:
    """The project function a task send's receiver is (``send_webhook`` of ``send_webhook.delay()``)."""
    return ctx.index.resolve_function(ctx.resolve(node.func.value))


# How a message names a transaction opened by every caller (the notes then show the callers).
_THROUGH_CALLERS = "code that runs only inside a transaction"
# The words a file that publishes contains (the rule's cheap relevance test).
_PUBLISH_WORDS = ("delay", "apply_async", "send", "enqueue", "publish", "produce")
# The words a file that opens a transaction itself contains (``atomic()``, ``begin()``); a session's
# own transaction shows as a ``.commit()`` call in the summary (the relevance test only: the model decides).
_TRANSACTION_WORDS = ("atomic", "begin")


@register
class PublishInsideTransaction(Rule):
    code = "BG604"
    fixable = "unsafe"
    name = "publish-inside-transaction"
    severity = Severity.ERROR
    preview = False  # held-out precision 92% of 12 judged: see scripts/ecosystem/report.md
    reads = ("call_graph", "call_sites", "jobs", "transactions")
    summary = "A message is published or a task enqueued inside an open database transaction."

    def is_relevant(self, unit) -> bool:
        index = unit.index
        if index is None or unit.summary is None:
            return any(word in unit.text for word in _PUBLISH_WORDS) and any(word in unit.text for word in _TRANSACTION_WORDS)
        functions = unit.summary.functions
        model = index.transactions
        calls_publisher = model is not None and unit.summary.module in model.calling_modules
        if not calls_publisher and not (
            # a call here that the model resolves as a publish (the words first: they are cheap)
            any(word in unit.text for word in _PUBLISH_WORDS)
            and any(transactions.target_publishes(index, target) for function in functions.values() for target in function.calls)
        ):
            return False
        # A transaction can come from a project helper (``with unit_of_work():``), from ATOMIC_REQUESTS
        # for views, or from every caller of a function: none need be spelled in this file.
        return bool(
            any(word in unit.text for word in _TRANSACTION_WORDS)
            or any(_may_be_a_session_transaction(index, target) for function in functions.values() for target in function.calls)
            or index.transaction_helpers
            or index.transaction_decorators
            or any(q in index.views or q in index.hooks_in_transaction or q in index.receivers_left_out for q in functions)
            or (model is not None and any(q in model.runs_inside or q in model.committed_by_callers for q in functions))
        )

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        what = _publish_name(node, ctx)
        if what is not None:
            self._published_here(node, what, ctx)
            return
        model = ctx.index.transactions
        if model is None or not model.publishes or not isinstance(node.func, (cst.Name, cst.Attribute)):
            return
        callee = ctx.index.resolve_function(ctx.resolve_call(node))
        found = model.publishes.get(callee or "")
        if found is None or callee == ctx.function_qualname:
            return
        chain, what, target = found
        if chain[-1] in model.runs_inside:
            return  # every caller of the publishing function runs it in a transaction: reported at the publish
        transaction = self._transaction(node, ctx, through_callers=False)
        if transaction is None:
            return
        shown = " -> ".join(f"{q.rsplit('.', 1)[-1]}()" for q in chain)
        ctx.report(
            self,
            node,
            f"`{short_name(chain[0], 36)}()` publishes and is called inside a transaction that may still roll back",
            f"It publishes (`{shown} -> {what}`) and is called here inside {transaction}: "
            "the message is out the moment it is sent, so if the transaction then rolls back, the consumer acts on data "
            "that never existed (or runs before the commit and does not find it). Call it after the commit "
            "(`transaction.on_commit(...)`), or make it write an outbox row that a relay sends.",
            related=_publish_notes(ctx.index, chain, what, target),
        )

    def _published_here(self, node: cst.Call, what: str, ctx: FileContext) -> None:
        transaction = self._transaction(node, ctx, through_callers=True)
        if transaction is None:
            return
        if _resends_itself(node, ctx):
            ctx.silence(self, node, "the task sends itself again with the arguments it was given (a retry): "
                        "they name nothing this transaction wrote, and a rollback is what the retry is for")
            return
        if _nudges_a_scheduled_task(node, ctx):
            ctx.silence(self, node, "a task sent with no arguments that the schedule also runs: it names nothing this "
                        "transaction wrote, and what an early run misses its next scheduled run reads")
            return
        model = ctx.index.transactions
        steps = model.runs_inside.get(ctx.function_qualname or "", ()) if model is not None else ()
        ctx.report(
            self,
            node,
            f"`{clip(what, 48)}` is sent inside a transaction that may still roll back",
            f"It runs inside {transaction}: the message is out the moment it is sent, so if the transaction then "
            "rolls back, the consumer acts on data that never existed (or runs before the commit and does not find it). "
            + ("Publish after the commit, or write an outbox row in the transaction and let a relay send it."
               if transaction.startswith(_SESSION_TRANSACTION) else
               "Publish from `transaction.on_commit(...)` (Celery 5.4+: `delay_on_commit()`), or write an outbox row "
               "in the transaction and let a relay send it."),
            related=(_caller_notes(ctx.index, steps, ctx.function_qualname) if transaction.startswith(_THROUGH_CALLERS)
                     else _committing_caller_notes(ctx) if transaction.endswith(_COMMITTED_BY_CALLER) else ()),
            fix=_on_commit_fix(node, transaction, ctx),
        )

    def _transaction(self, node: cst.Call, ctx: FileContext, through_callers: bool) -> Optional[str]:
        for ancestor in reversed(ctx.ancestors[:-1]):
            if isinstance(ancestor, (cst.Lambda,)):
                return None
            if isinstance(ancestor, cst.Call) and ctx.resolve_call(ancestor) in knowledge.ON_COMMIT:
                return None
            if isinstance(ancestor, cst.With):
                for item in ancestor.items:
                    label = _transaction_item(item.item, ctx)
                    if label:
                        if not self._takes_back(ancestor.body, node, ctx):
                            return None
                        return f"`async {label[1:]}" if ancestor.asynchronous is not None and label.startswith("`with ") else label
            if isinstance(ancestor, cst.FunctionDef):
                return self._function_transaction(ancestor, node, ctx, through_callers)
        return None

    def _takes_back(self, body: cst.CSTNode, node: cst.Call, ctx: FileContext) -> bool:
        """Whether a rollback of the transaction whose code is ``body`` takes back what the publish
        announces: not an outbox relay publishing the rows it locked, and a write on the way
        (each "no" is a --verbose note)."""
        if _relays_locked_rows(body, node, ctx):
            ctx.silence(self, node, "an outbox relay: it publishes rows it locked in the transaction")
            return False
        if not _writes_on_the_way(body, ctx):
            ctx.silence(self, node, "the transaction writes nothing a rollback would take back")
            return False
        return True

    def _function_transaction(self, function: cst.FunctionDef, node: cst.Call, ctx: FileContext, through_callers: bool) -> Optional[str]:
        """The transaction the whole function runs in: its decorator's, a view's, or (``through_callers``)
        the one every caller calls it in."""
        qualname = ctx.function_qualname or ""
        if qualname in ctx.index.on_commit_callbacks:
            ctx.silence(self, node, "the function runs from transaction.on_commit(), after the commit")
            return None
        for decorator in function.decorators:
            label = transactions.decorator_label(ctx.index, ctx.to_ir(decorator.decorator))
            if label:
                return label if self._takes_back(function.body, node, ctx) else None
        view = transactions.view_label(ctx.index, qualname)
        if view is not None:
            if not _writes_on_the_way(function.body, ctx):
                ctx.silence(self, node, "the view's ATOMIC_REQUESTS transaction writes nothing a rollback would take back")
                return None
            return view
        admin = transactions.admin_label(ctx.index, qualname)
        if admin is not None:
            if qualname.rsplit(".", 1)[-1] in knowledge.ADMIN_METHODS_THAT_WRITE and not _writes_on_the_way(function.body, ctx):
                ctx.silence(self, node, "the admin's transaction has written nothing yet when this method publishes")
                return None
            return admin
        hook = ctx.index.hooks_in_transaction.get(qualname)
        if hook is not None:
            return hook  # the framework's write (the save, the delete) is in it
        session = _session_transaction(function.body, node, ctx)
        if session is not None:
            return session
        model = ctx.index.transactions
        if through_callers and model is not None and qualname in model.runs_inside:
            return f"{_THROUGH_CALLERS}: {model.runs_inside[qualname][0].text}"
        if qualname in ctx.index.receivers_left_out:
            ctx.silence(self, node, ctx.index.receivers_left_out[qualname])
        return None


# How a message names a session's own transaction (it is committed below the publish, in the function).
_SESSION_TRANSACTION = "the transaction the session began at"
# ... and how it says that a caller commits it.
_COMMITTED_BY_CALLER = "commits after calling this function"


def _session_transaction(body: cst.CSTNode, node: cst.Call, ctx: FileContext) -> Optional[str]:
    """The transaction a SQLAlchemy session began by itself ("autobegin") and this function commits
    after the publish: a write on the session (``knowledge.SESSION_WRITES``) before the publish, no
    commit, rollback or close of it in between, and its ``commit()`` after, in source order (nested
    functions left out); or, for a session the request commits (``knowledge.REQUEST_SESSIONS``),
    no end of it after the publish; or no end of it after the publish and a caller that commits the
    same session after calling this function (a module's ``db.session``). A session committed
    elsewhere, or not written to, is not followed."""
    calls = find_all(body, (cst.Call,))
    at = next((position for position, call in enumerate(calls) if call is node), None)
    if at is None:
        return None
    opened: dict[str, cst.Call] = {}  # receiver -> the write that began its transaction
    for call in calls[:at]:
        receiver, method = _session_method(call, ctx)
        if receiver is not None and method in knowledge.SESSION_WRITES:
            opened.setdefault(receiver, call)
        elif receiver is not None and method in knowledge.SESSION_ENDS:
            opened.pop(receiver, None)
    for call in calls[at + 1 :]:
        receiver, method = _session_method(call, ctx)
        if receiver not in opened:
            continue
        if method == "commit":
            began = ctx.module.code_for_node(opened[receiver].func)
            return f"{_SESSION_TRANSACTION} `{clip(began, 40)}()`, committed only below (`{clip(ctx.module.code_for_node(call.func), 40)}()`)"
        if method in knowledge.SESSION_ENDS:
            opened.pop(receiver)
    for receiver, write in opened.items():
        began = ctx.module.code_for_node(write.func)
        if knowledge.REQUEST_SESSIONS.fullmatch(receiver):
            return f"{_SESSION_TRANSACTION} `{clip(began, 40)}()`, which the request commits after the endpoint returns"
        caller = _committing_caller(receiver, ctx)
        if caller is not None:
            return f"{_SESSION_TRANSACTION} `{clip(began, 40)}()`, which `{short_name(caller, 36)}()` {_COMMITTED_BY_CALLER}"
    return None


def _committing_caller_notes(ctx: FileContext) -> tuple:
    """Where each caller that commits the session calls the publishing function."""
    pairs = ctx.index.transactions.committed_by_callers.get(ctx.function_qualname or "", ())
    callers = sorted({caller for caller, _session in pairs})
    return tuple(
        _note(_call_position(ctx.index, caller, ctx.function_qualname), f"-> {transactions.short_call(caller)} calls {transactions.short_call(ctx.function_qualname)}, then commits the session")
        for caller in callers
    )


def _committing_caller(receiver: str, ctx: FileContext) -> Optional[str]:
    """A caller that commits this session (canonical, as session_method gives it) after calling the
    function (the transaction model's ``committed_by_callers``)."""
    model = ctx.index.transactions
    if model is None or not ctx.function_qualname:
        return None
    return next((caller for caller, committed in model.committed_by_callers.get(ctx.function_qualname, ()) if committed == receiver), None)


def _may_be_a_session_transaction(index, target: str) -> bool:
    """BG604's relevance test for a session's own transaction: a ``.commit()`` call, or a write on a
    session the request commits (``knowledge.REQUEST_SESSIONS``)."""
    receiver, _, method = target.rpartition(".")
    if method == "commit":
        return True
    return method in knowledge.SESSION_WRITES and knowledge.REQUEST_SESSIONS.fullmatch(index.canonical(receiver) or "") is not None


def _session_method(call: cst.Call, ctx: FileContext) -> tuple[Optional[str], str]:
    """(the session, the method) for a method call on a SQLAlchemy session, else (None, "")."""
    target = ctx.resolve_call(call)
    if not target or not isinstance(call.func, cst.Attribute):
        return None, ""
    return transactions.session_method(ctx.index, target)


def _call_position(index, caller: str, callee: Optional[str], target: Optional[str] = None) -> tuple[str, int, int]:
    """(path, line, column) of the call of ``callee`` (a project function) or ``target`` (as recorded)
    in ``caller``: the call itself where the summary knows it, else the caller's ``def`` line."""
    summary, func = index.functions[caller]
    for position, recorded in enumerate(func.calls):
        if recorded == target or (callee is not None and index.resolve_function(recorded) == callee):
            if position < len(func.call_sites) and func.call_sites[position][0]:
                return summary.path, func.call_sites[position][0], func.call_sites[position][1] or 1
            break
    return summary.path, func.line or 1, 1


def _note(where: tuple[str, int, int], text: str) -> Location:
    return Location(where[0], where[1], where[2], where[1], where[2], text)


def _caller_notes(index, steps, publisher: Optional[str]) -> tuple:
    """From where the transaction opens down to the publishing function: one note per call."""
    notes = []
    for position, step in enumerate(steps):
        callee = steps[position + 1].function if position + 1 < len(steps) else publisher
        notes.append(_note(_call_position(index, step.function, callee), f"-> {step.text}"))
    return tuple(notes)


def _publish_notes(index, chain: tuple, what: str, target: str) -> tuple:
    """From the called function down to the publish: one note per call."""
    notes = []
    for position, function in enumerate(chain):
        if position + 1 < len(chain):
            notes.append(_note(_call_position(index, function, chain[position + 1]), f"-> {function.rsplit('.', 1)[-1]}() calls {chain[position + 1].rsplit('.', 1)[-1]}()"))
        else:
            notes.append(_note(_call_position(index, function, None, target), f"-> {function.rsplit('.', 1)[-1]}() calls {what}"))
    return tuple(notes)


class _Names:  # (walked by syntax/walk.py)
    """The variables an expression reads: ``row`` in ``row.payload``, not ``payload``; not keyword names."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        walk(node.value, self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        walk(node.value, self)
        return False


def _names(node: Optional[cst.CSTNode]) -> set[str]:
    if node is None:
        return set()
    visitor = _Names()
    walk(node, visitor)
    return visitor.names


class _Reads:  # (walked by syntax/walk.py)
    """(source, bound names) for each binding in a block (assignments, ``for`` targets, ``with ... as``),
    and for each method call, whose arguments flow into its receiver: after
    ``cursor.execute("... FOR UPDATE")`` the cursor holds locked rows, after ``batch.append(row.body)``
    the batch holds what was read."""

    def __init__(self) -> None:
        self.flows: list[tuple[cst.CSTNode, set[str]]] = []

    def visit_Assign(self, node: cst.Assign) -> None:
        self.flows.append((node.value, set().union(*(_names(t.target) for t in node.targets))))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self.flows.append((node.value, _names(node.target)))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.flows.append((node.value, _names(node.target)))

    def visit_For(self, node: cst.For) -> None:
        self.flows.append((node.iter, _names(node.target)))

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self.flows.append((node.iter, _names(node.target)))

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self.flows.append((node.item, _names(node.asname.name)))

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute):
            self.flows.append((cst.Tuple([cst.Element(a.value) for a in node.args]) if node.args else node.func.attr, _names(node.func.value)))


def _relays_locked_rows(body: cst.CSTNode, publish: cst.Call, ctx: FileContext) -> bool:
    """An outbox relay: the transaction locks rows (``select_for_update`` / ``with_for_update`` /
    ``FOR UPDATE``) and the message is made from what it read from them. Locking one row and then
    publishing something else (a parameter, a constant) is still publishing inside the transaction."""
    reads = _Reads()
    walk(body, reads)
    flows = [(source, _names(source), bound, locks_rows(source)) for source, bound in reads.flows]
    if not any(locks for _source, _used, _bound, locks in flows):
        return False
    locked: set[str] = set()
    changed = True
    while changed:  # to a fixed point: ``rows = q.select_for_update()``, ``for row in rows``, ``body = row.payload``
        changed = False
        for _source, used, bound, locks in flows:
            if (locks or used & locked) and not bound <= locked:
                locked |= bound
                changed = True
    published = set().union(*(_names(arg.value) for arg in publish.args)) if publish.args else set()
    return bool(published & locked)


# How many calls down from the transaction a project function's write is looked for.
_WRITE_DEPTH = 3


def _writes_on_the_way(body: cst.CSTNode, ctx: FileContext) -> bool:
    """Whether the transaction whose code is ``body`` writes rows on a path through the node being
    visited (a publish, or a call of a function that publishes): a write anywhere in ``body``,
    before or after it, except in the branches of an ``if`` or ``match`` that the node is not in.
    A write is a method of ``knowledge.TRANSACTION_WRITES`` on any receiver, or a call of a project
    function that makes one (up to ``_WRITE_DEPTH`` calls down). With none, a rollback takes back
    nothing the message could announce, and the consumer reads what it would after the commit.
    A function that a caller may run inside the caller's own transaction (a nested ``atomic`` is a
    savepoint of it) counts as writing: that transaction is larger than ``body``."""
    model = ctx.index.transactions
    qualname = ctx.function_qualname or ""
    if model is not None and (qualname in model.runs_inside or qualname in model.called_publishers):
        return True  # a caller's transaction, which may write, holds this one: we cannot see it all
    chain = ctx.ancestors
    start = next((position for position, node in enumerate(chain) if node is body), len(chain))
    skipped: set[int] = set()
    for parent, child in zip(chain[start:], chain[start + 1 :]):
        if isinstance(parent, cst.If) and parent.orelse is not None and child in (parent.body, parent.orelse):
            skipped.add(id(parent.orelse if child is parent.body else parent.body))
        elif isinstance(parent, cst.Match):
            skipped.update(id(case) for case in parent.cases if case is not child)
    return any(_writes(call, ctx) for call in find_all(body, (cst.Call,), frozenset(skipped)))


def _writes(call: cst.Call, ctx: FileContext) -> bool:
    target = ctx.resolve_call(call)
    func = call.func
    method = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    if _is_transaction_write(target or f"?.{method}"):  # unresolved: ``?.save``, as summaries keep it
        return True
    callee = ctx.index.resolve_function(target)
    if callee is None:
        return False
    for function, _parent in breadth_first([callee], lambda q: sorted(ctx.index.callees(q)), max_depth=_WRITE_DEPTH):
        summary = ctx.index.function(function)
        if summary is not None and any(_is_transaction_write(recorded) for recorded in summary.calls):
            return True
    return False


def _is_transaction_write(target: str) -> bool:
    """A call target (canonical, or ``?receiver.method`` as summaries keep an unresolved one) that
    writes rows: a write method by name, unless it resolves into a store no rollback reaches."""
    return target.rsplit(".", 1)[-1] in knowledge.TRANSACTION_WRITES and not target.startswith(knowledge.WRITES_OUTSIDE_TRANSACTIONS)


def _transaction_item(item: cst.BaseExpression, ctx: FileContext) -> Optional[str]:
    written = dotted_name(item.func.value) if isinstance(item, cst.Call) and isinstance(item.func, cst.Attribute) else None
    return transactions.item_label(ctx.index, ctx.to_ir(item), written)


_DJANGO_ATOMIC = ("`with transaction.atomic():`", "`with transaction.atomic:`", "a function decorated with `@transaction.atomic`")


def _on_commit_fix(node: cst.Call, transaction: str, ctx) -> Optional[Fix]:
    """BG604's fix: ``task.delay(a)`` -> ``transaction.on_commit(partial(task.delay, a))`` (and
    ``from functools import partial`` when the module lacks it). Unsafe: the message is then sent
    after the commit, and not at all on a rollback. Offered only inside Django's
    ``transaction.atomic`` on the default database (``on_commit`` must name the same one), where
    ``transaction`` is ``django.db.transaction``, for a call whose result is unused."""
    imports = ctx.summary.imports
    if transaction not in _DJANGO_ATOMIC or not _default_database(ctx) or imports.get("transaction") != "django.db.transaction":
        return None
    if not isinstance(ctx.parent(), cst.Expr) or node.lpar or any(arg.star for arg in node.args):
        return None
    if not isinstance(node.whitespace_after_func, cst.SimpleWhitespace) or node.whitespace_after_func.value:
        return None
    func_end, call_end = ctx.position(node.func).end, ctx.position(node).end
    if not node.args:  # ``task.delay()`` -> ``transaction.on_commit(task.delay)``
        edits = [ctx.insert_before(node, "transaction.on_commit("), Edit(func_end.line, func_end.column + 1, call_end.line, call_end.column + 1, ")")]
        return Fix(Applicability.UNSAFE, "Publish from `transaction.on_commit(...)`", tuple(edits))
    spelled = name_for_import(ctx, "functools.partial")
    if spelled is None:
        return None  # another ``partial`` in this module
    partial, added = spelled
    tight = isinstance(node.whitespace_before_args, cst.SimpleWhitespace) and not node.whitespace_before_args.value
    edits = [
        ctx.insert_before(node, f"transaction.on_commit({partial}("),
        Edit(func_end.line, func_end.column + 1, func_end.line, func_end.column + 2, ", " if tight else ","),  # the call's "("
        ctx.insert_after(node, ")"),
    ]
    if added is not None:
        edits.append(added)
    return Fix(Applicability.UNSAFE, "Publish from `transaction.on_commit(partial(...))`", tuple(edits))


def _default_database(ctx) -> bool:
    """No enclosing ``transaction.atomic(...)`` (block or decorator) names a database."""
    for ancestor in ctx.ancestors:
        expressions = []
        if isinstance(ancestor, cst.With):
            expressions = [item.item for item in ancestor.items]
        elif isinstance(ancestor, cst.FunctionDef):
            expressions = [decorator.decorator for decorator in ancestor.decorators]
        for expression in expressions:
            if isinstance(expression, cst.Call) and expression.args and ctx.resolve_call(expression) in knowledge.TRANSACTION_CONTEXTS:
                return False
    return True
