"""Small questions rules ask about a call in the CST: shared, so each is answered one way."""

from __future__ import annotations

from typing import Optional

from bgcheck.syntax.lazy import cst

from bgcheck import knowledge
from bgcheck.syntax.cst_ir import dotted_name
from bgcheck.syntax.walk import walk
from bgcheck.rules.checker import FileContext


def argument(node: cst.Call, keyword: str, position: Optional[int] = None) -> Optional[cst.BaseExpression]:
    """The argument passed as ``keyword=``, or else at ``position`` among the plain positional ones."""
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    if position is None:
        return None
    positional = [a for a in node.args if a.keyword is None and not a.star]
    return positional[position].value if len(positional) > position else None


def receiver_kind(node: cst.Call, ctx: FileContext) -> Optional[str]:
    """What the receiver of ``x.method(...)`` is known to be ("executor", "queue", "thread", "task",
    "future", ...: knowledge.RECEIVER_APIS), from the project model; None when it is not known to be
    one of those (a project class with its own method, a parameter with no annotation, ...)."""
    func = node.func
    if not isinstance(func, cst.Attribute):
        return None
    api = ctx.index.receiver_type(ctx.resolve(func.value))
    return knowledge.RECEIVER_APIS.get(api) if api else None


def is_executor_receiver(node: cst.Call, ctx: FileContext) -> bool:
    """``x.submit(...)`` / ``x.map(...)`` on something the model knows is a concurrent.futures executor
    (a name that merely says "executor" or "pool" is not enough)."""
    return receiver_kind(node, ctx) == "executor"


def _is_true(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "True"


def sets_daemon(scope: cst.CSTNode, variable: Optional[str] = None, only_true: bool = False) -> bool:
    """Does ``scope`` make a thread a daemon: ``v.daemon = ...`` or ``v.setDaemon(...)`` on ``variable``
    (any receiver when None, and then also ``daemon = ...`` and ``Thread(daemon=...)``)? With
    ``only_true``, only a literal ``True`` counts. Read from the syntax tree: comments and strings
    say nothing."""
    found = False

    def value_ok(value: Optional[cst.BaseExpression]) -> bool:
        return value is not None and (not only_true or _is_true(value))

    class _Finder(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            nonlocal found
            for target in node.targets:
                target = target.target
                if isinstance(target, cst.Attribute) and target.attr.value == "daemon":
                    if (variable is None or dotted_name(target.value) == variable) and value_ok(node.value):
                        found = True
                elif variable is None and isinstance(target, cst.Name) and target.value == "daemon" and value_ok(node.value):
                    found = True

        def visit_Arg(self, node: cst.Arg) -> None:
            nonlocal found
            if variable is None and node.keyword is not None and node.keyword.value == "daemon" and value_ok(node.value):
                found = True

        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "setDaemon":
                if variable is None or dotted_name(func.value) == variable:
                    if value_ok(node.args[0].value if node.args else None):
                        found = True

    walk(scope, _Finder())
    return found


def last_name(call: cst.Call) -> Optional[str]:
    """``wait`` for ``asyncio.wait(...)`` and ``wait(...)``; None for ``f()()``."""
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.attr.value
    if isinstance(func, cst.Name):
        return func.value
    return None


def starts_with(node: cst.BaseExpression, variable: str) -> bool:
    """Is ``node`` the variable, or an attribute or call on it (``task``, ``task.done``, ``task.result()``)?"""
    while True:
        if dotted_name(node) == variable:
            return True
        if isinstance(node, cst.Call):
            node = node.func
        elif isinstance(node, cst.Attribute):
            node = node.value
        elif isinstance(node, cst.Subscript):
            node = node.value
        else:
            return False


def mentions(node: cst.CSTNode, variable: str) -> bool:
    """Does the variable appear in ``node`` (as ``task``, ``*tasks``, ``[t, task]``...)?"""
    found = False

    class _Finder(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            nonlocal found
            found = found or n.value == variable

        def visit_Attribute(self, n: cst.Attribute) -> bool:
            nonlocal found
            if dotted_name(n) == variable:
                found = True
                return False
            return True

    walk(node, _Finder())
    return found


def calls_around(scope: cst.CSTNode, node: cst.CSTNode) -> tuple[list, list]:
    """(calls before ``node``, calls after it) in ``scope``, in source order; calls inside ``node``
    itself are in neither."""
    before: list[cst.Call] = []
    after: list[cst.Call] = []
    seen = False

    class _Finder(cst.CSTVisitor):
        def on_visit(self, n: cst.CSTNode) -> bool:
            nonlocal seen
            if n is node:
                seen = True
                return False
            if isinstance(n, cst.Call):
                (after if seen else before).append(n)
            return True

    walk(scope, _Finder())
    return before, after


def is_waited_for(scope: cst.CSTNode, variable: str) -> bool:
    """Is the task, future or thread held in ``variable`` waited for somewhere in ``scope``:
    ``await task``, ``task.result()``, ``thread.join()``, ``asyncio.gather(*tasks)``,
    ``wait(futures, ...)``, ``as_completed(futures)``? Read from the syntax tree only."""
    found = False

    class _Finder(cst.CSTVisitor):
        def visit_Await(self, node: cst.Await) -> None:
            nonlocal found
            found = found or starts_with(node.expression, variable)

        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            name = last_name(node)
            if name in knowledge.WAITS_FOR_RECEIVER and isinstance(node.func, cst.Attribute):
                found = found or dotted_name(node.func.value) == variable
            elif name in knowledge.WAITS_FOR_ARGUMENTS:
                found = found or any(mentions(arg.value, variable) for arg in node.args)

    walk(scope, _Finder())
    return found


def receiver_is(kind: str, node: cst.Call, ctx: FileContext) -> bool:
    if not isinstance(node.func, cst.Attribute):
        return False
    if kind == "executor":
        return is_executor_receiver(node, ctx)
    if kind == "background-tasks":
        return "background" in (dotted_name(node.func.value) or "").lower()
    raise ValueError(f"unknown receiver kind {kind!r}")  # pragma: no cover - a typo in knowledge.WORK_STARTS


def work_start(node: cst.Call, ctx: FileContext, wanted) -> Optional[knowledge.WorkStart]:
    """The first row of ``knowledge.WORK_STARTS`` that ``wanted(row)`` selects and this call is:
    by its canonical name or its method name, on a receiver of the kind the row asks for."""
    canonical = ctx.resolve_call(node)
    method = node.func.attr.value if isinstance(node.func, cst.Attribute) else None
    for start in knowledge.WORK_STARTS:
        if not wanted(start) or not start.matches(canonical, method):
            continue
        if start.receiver is not None and not receiver_is(start.receiver, node, ctx):
            continue
        return start
    return None


def spelled(wanted) -> tuple:
    """Words a file must contain to make a call of the rows ``wanted`` selects (a cheap relevance test)."""
    return tuple(dict.fromkeys(word for start in knowledge.WORK_STARTS if wanted(start) for word in start.spelled))


def assigned_name(ctx: FileContext) -> Optional[str]:
    """The one name or attribute, as written (``task``, ``self._ping``), that the value being
    visited is assigned to; None for anything else (a tuple target, an argument...)."""
    parent = ctx.parent()
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
        return dotted_name(parent.targets[0].target)
    if isinstance(parent, cst.AnnAssign):
        return dotted_name(parent.target)
    return None


def holder_of(node: cst.Call, ctx: FileContext) -> Optional[str]:
    """Where the object a call makes is kept: ``pkg.mod.NAME`` (a global), ``pkg.mod.Cls.NAME`` (a class
    attribute) or ``pkg.mod.Cls().attr`` (``self.attr = ...`` in a method); None for a local or anything else."""
    parent = ctx.parent()
    if not isinstance(parent, (cst.Assign, cst.AnnAssign)):
        return None
    targets = [t.target for t in parent.targets] if isinstance(parent, cst.Assign) else [parent.target]
    if len(targets) != 1:
        return None
    target = targets[0]
    if isinstance(target, cst.Name):
        if ctx.function_node is None:
            owner = ctx.class_qualname or ctx.summary.module
            return f"{owner}.{target.value}"
        return None  # a local variable: not kept
    if isinstance(target, cst.Attribute) and dotted_name(target.value) == "self":
        function = ctx.function
        if function is not None and function.class_qualname:
            return f"{function.class_qualname}().{target.attr.value}"
    return None
