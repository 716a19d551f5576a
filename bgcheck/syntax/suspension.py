"""Where a coroutine can receive a cancellation, and whose cancellation a handler catches, on the
libcst trees phase 2's rules read (the execution model, bgcheck/model/execution.py, says which
thread a function runs on; this says what its code can do there).
"""

from __future__ import annotations

from typing import Optional

from bgcheck.syntax.lazy import cst

from bgcheck.syntax.cst_ir import dotted_name
from bgcheck.syntax.walk import find_all, walk


# --- suspension points -------------------------------------------------------------------


def suspension_points(body: cst.CSTNode) -> list[cst.CSTNode]:
    """Every suspension point in a body (not in nested functions or lambdas): ``await``
    expressions, and the ``async for`` / ``async with`` statements, which await implicitly."""
    return [
        node
        for node in find_all(body, (cst.Await, cst.For, cst.With, cst.CompFor))
        if isinstance(node, cst.Await) or node.asynchronous is not None
    ]


def can_suspend(body: Optional[cst.CSTNode]) -> bool:
    return body is not None and bool(suspension_points(body))


# --- whose cancellation ----------------------------------------------------------------------


def task_reference(node: Optional[cst.BaseExpression]) -> Optional[str]:
    """How a task is referred to, for matching its ``cancel()`` with its ``await``: a dotted name
    (``t``, ``self._task``), or one item of a mapping of tasks by a name or a constant
    (``self._tracking[pair]``, ``tasks["feed"]``)."""
    name = dotted_name(node) if node is not None else None
    if name or not isinstance(node, cst.Subscript) or len(node.slice) != 1:
        return name
    base, index = dotted_name(node.value), node.slice[0].slice
    if base is None or not isinstance(index, cst.Index):
        return None
    key = index.value
    if isinstance(key, cst.Name):
        return f"{base}[{key.value}]"
    if isinstance(key, (cst.SimpleString, cst.Integer)):
        return f"{base}[{key.value}]"
    return None


def cancelled_names(scope: cst.CSTNode) -> set[str]:
    """Dotted names ``x`` of every ``x.cancel()`` call in ``scope`` (nested functions excluded
    unless ``scope`` is one)."""
    names: set[str] = set()

    class _Finder(cst.CSTVisitor):
        def visit_FunctionDef(self, node) -> bool:
            return node is scope

        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "cancel":
                name = task_reference(func.value)
                if name:
                    names.add(name)

    walk(scope, _Finder())
    return names


_CLASS_CANCELS: dict[int, tuple[cst.ClassDef, set[str]]] = {}


def cancelled_attributes(class_node: cst.ClassDef) -> set[str]:
    """``self.x`` for every ``self.x.cancel()`` in any method of the class."""
    cached = _CLASS_CANCELS.get(id(class_node))
    if cached is not None and cached[0] is class_node:
        return cached[1]
    names: set[str] = set()
    for statement in class_node.body.body:
        if isinstance(statement, cst.FunctionDef):
            names |= {n for n in cancelled_names(statement) if n.startswith("self.") and n.count(".") == 1}
    if len(_CLASS_CANCELS) > 256:
        _CLASS_CANCELS.clear()
    _CLASS_CANCELS[id(class_node)] = (class_node, names)
    return names


def _cancelled_before(scope: cst.CSTNode, points: list[cst.CSTNode]) -> set[int]:
    """ids of the ``await t`` among ``points`` with ``t.cancel()`` called before them, in source
    order, in ``scope`` (nested functions excluded)."""
    pending = {id(node) for node in points}
    ok: set[int] = set()

    class _Walker(cst.CSTVisitor):
        def __init__(self) -> None:
            self.cancelled: set[str] = set()

        def visit_FunctionDef(self, node) -> bool:
            return node is scope

        def visit_Lambda(self, node) -> bool:
            return False

        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "cancel":
                name = task_reference(func.value)
                if name:
                    self.cancelled.add(name)

        def on_visit(self, node: cst.CSTNode) -> bool:
            if id(node) in pending and isinstance(node, cst.Await):
                names = awaited_names(node)
                if names and names <= self.cancelled:
                    ok.add(id(node))
            return super().on_visit(node)

    walk(scope, _Walker())
    return ok


def awaits_only_cancelled_tasks(body: cst.CSTNode, function: cst.CSTNode, class_node: Optional[cst.ClassDef] = None) -> bool:
    """Is every suspension point in ``body`` a plain ``await t`` of a task that was cancelled:
    ``t.cancel()`` earlier in ``function``, or ``self.t.cancel()`` in any method of ``class_node``?
    Then a CancelledError caught around it is that task's outcome. Any other suspension point
    could receive a cancellation meant for this task."""
    points = suspension_points(body)
    if not points:
        return False
    earlier = _cancelled_before(function, points)
    by_class = cancelled_attributes(class_node) if class_node is not None else set()
    for point in points:
        if id(point) in earlier:
            continue
        if isinstance(point, cst.Await) and awaited_names(point) and awaited_names(point) <= by_class:
            continue
        return False
    return True


# Waiting helpers that end when the tasks given to them end: awaiting them after cancelling
# those tasks waits for the cancellation to finish, as ``await t`` does.
_WAIT_HELPERS = frozenset({"wait_for", "shield", "gather", "wait"})


def awaited_names(node: cst.Await) -> set[str]:
    """Dotted names of the tasks an ``await`` waits for: ``await t``, ``await wait_for(t, 5)``,
    ``await shield(t)``, ``await gather(t, u)``, ``await wait([t, u])``; empty for anything else."""
    expression = node.expression
    name = task_reference(expression)
    if name:
        return {name}
    if not isinstance(expression, cst.Call):
        return set()
    func = expression.func
    helper = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
    if helper not in _WAIT_HELPERS or not expression.args:
        return set()
    if helper in ("wait_for", "shield"):
        values = [expression.args[0].value]
    elif helper == "wait":
        first = expression.args[0].value
        values = [e.value for e in first.elements] if isinstance(first, (cst.List, cst.Tuple, cst.Set)) else [first]
    else:  # gather(t, u, return_exceptions=True)
        values = [a.value for a in expression.args if a.keyword is None and a.star == ""]
    names = {task_reference(v) for v in values}
    return set() if None in names or not names else names
