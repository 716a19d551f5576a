"""Futures known to be done where they are awaited.

``await t`` suspends only while ``t`` is pending (``Future.__await__`` yields only then); a task
that is already done hands back its outcome at once. So a ``try`` whose only suspension points
are awaits of finished tasks cannot receive a cancellation meant for the running task: what its
``except BaseException`` / ``except CancelledError`` catches is the finished task's own outcome.

A name is known to hold a finished task when every binding of it in the function is one of:

* ``for t in done`` where every binding of ``done`` is the first item of
  ``done, pending = await asyncio.wait(...)`` (the set of finished futures), or a comprehension
  that keeps only done tasks (``done = tuple(t for t in tasks if t.done())``);
* ``t = await self.q.get()`` / ``t = self.q.get_nowait()`` where ``self.q`` is a queue of finished
  tasks: in its class, everything put into it is the argument of a done-callback (a method whose
  only use is ``x.add_done_callback(self.method)``), and the queue is used for nothing but
  putting, getting and asking its size.

Or, where it is awaited, the test of the ``if`` around the await says so: ``if t.done():`` (alone or
``and``-ed with other tests), with nothing in that ``if`` binding ``t`` again before the await.

Anything else (a parameter, a name also bound otherwise, a queue handed elsewhere) is not known.

And, where it is awaited, a future that ``asyncio.wait_for`` has just timed out on: in the handler
of ``except asyncio.TimeoutError`` (or ``TimeoutError``) of a ``try`` whose body awaits
``asyncio.wait_for(t, ...)``, ``t`` is cancelled and done (wait_for waits for the cancellation
it makes to finish before it raises), unless the name is bound again in the handler.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from bgcheck.syntax.lazy import cst

from bgcheck import knowledge
from bgcheck.syntax.suspension import suspension_points
from bgcheck.syntax.cst_ir import dotted_name
from bgcheck.syntax.walk import walk

Resolver = Callable[["cst.Call"], Optional[str]]

_QUEUE_READS = frozenset({"get", "get_nowait", "empty", "qsize", "full", "task_done", "join"})
_QUEUE_PUTS = frozenset({"put", "put_nowait"})


def awaits_only_done_futures(
    body: cst.CSTNode, function: Optional[cst.CSTNode], class_node: Optional[cst.ClassDef], resolve_call: Resolver,
    enclosing: Sequence[cst.CSTNode] = (),
) -> bool:
    """Is every suspension point in ``body`` a plain ``await t`` of a task known to be done?
    ``enclosing``: the nodes around ``body``, outermost first (the checker's ancestors)."""
    awaited = _plain_awaited_names(body)
    if awaited is None or function is None:
        return False
    bindings = _bindings(function)
    left = awaited - _done_names(bindings, class_node, resolve_call)
    return not left or all(
        _done_by_its_loop(name, enclosing, bindings, resolve_call) or _done_by_its_guard(name, enclosing) for name in left
    )


def _done_by_its_guard(name: str, enclosing: Sequence[cst.CSTNode]) -> bool:
    """``if t.done(): try: await t ...`` (the test alone or ``and``-ed with others): the nearest
    such ``if`` around the await, in whose body nothing binds ``t`` again before the statement the
    await is in. A task once done stays done, so the await hands back its outcome at once."""
    inside = {id(node) for node in enclosing}
    for node in reversed(enclosing):
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return False
        if isinstance(node, cst.If) and id(node.body) in inside and _tests_done(node.test, name):
            for statement in node.body.body:
                if id(statement) in inside:
                    return True
                if name in _bindings(statement):
                    return False
    return False


def _tests_done(test: cst.BaseExpression, name: str) -> bool:
    """Is ``test`` ``name.done()``, or that ``and``-ed with other tests?"""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        return _tests_done(test.left, name) or _tests_done(test.right, name)
    return (
        isinstance(test, cst.Call) and not test.args and isinstance(test.func, cst.Attribute)
        and test.func.attr.value == "done" and isinstance(test.func.value, cst.Name) and test.func.value.value == name
    )


def _done_by_its_loop(name: str, enclosing: Sequence[cst.CSTNode], bindings: dict, resolve_call: Resolver) -> bool:
    """``for t in done: ... await t``, where the function binds ``t`` elsewhere too (``t =
    create_task(...)``, ``for t in pending:``): the ``for`` nearest around the await that binds
    ``t`` (in its body, not its ``else:``) goes over a done set, and nothing in that loop's body
    binds ``t`` again, so the ``t`` awaited is one of the done tasks."""
    inside = {id(node) for node in enclosing}
    for node in reversed(enclosing):
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return False
        if isinstance(node, cst.For) and isinstance(node.target, cst.Name) and node.target.value == name:
            if id(node.body) not in inside or not isinstance(node.iter, cst.Name) or name in _bindings(node.body):
                return False
            sets = bindings.get(node.iter.value, [])
            return bool(sets) and all(_is_done_set(how, resolve_call) for how in sets)
    return False


def _plain_awaited_names(body: cst.CSTNode) -> Optional[set[str]]:
    """The names ``t`` of ``body``'s suspension points when every one is a plain ``await t``;
    None when there is none, or another kind among them."""
    points = suspension_points(body)
    if not points or not all(isinstance(p, cst.Await) and isinstance(p.expression, cst.Name) for p in points):
        return None
    return {p.expression.value for p in points}


def _bindings(function: cst.CSTNode) -> dict[str, list]:
    """name -> what binds it in ``function`` (not in nested scopes): the value node for
    ``name = value``, ``("for", iterable)`` for a loop target, "other" for any other binding."""
    found: dict[str, list] = {}

    def bind(target, how) -> None:
        if isinstance(target, cst.Name):
            found.setdefault(target.value, []).append(how)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for i, element in enumerate(target.elements):
                bind(element.value, ("item", i, how) if how != "other" else "other")
        elif isinstance(target, cst.StarredElement):
            bind(target.value, "other")

    class _Finder(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if node is not function and isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef, cst.CompFor)):
                if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
                    bind(node.name, "other")
                return False
            if isinstance(node, cst.Assign):
                for target in node.targets:
                    bind(target.target, node.value)
            elif isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.NamedExpr, cst.AsName)):
                bind(node.target if not isinstance(node, cst.AsName) else node.name, "other")
            elif isinstance(node, cst.For):
                bind(node.target, ("for", node.iter))
            elif isinstance(node, cst.Param):
                bind(node.name, "other")
            elif isinstance(node, (cst.Global, cst.Nonlocal)):
                for item in node.names:
                    bind(item.name, "other")
            elif isinstance(node, cst.Del):
                bind(node.target, "other")
            return True

    walk(function, _Finder())
    return found


def _done_names(bindings: dict, class_node: Optional[cst.ClassDef], resolve_call: Resolver) -> set[str]:
    """The names every binding of which (``bindings``: the function's) is a done task."""
    done_sets = {name for name, hows in bindings.items() if all(_is_done_set(how, resolve_call) for how in hows)}
    queues = done_queues(class_node) if class_node is not None else set()
    return {name for name, hows in bindings.items() if all(_is_done_future(how, done_sets, queues) for how in hows)}


def _is_done_set(how, resolve_call: Resolver) -> bool:
    """The first item of ``await asyncio.wait(...)``, or the tasks a comprehension keeps when they are
    done (``[t for t in tasks if t.done()]``, also in ``tuple(...)``, ``list(...)``, ``set(...)``)."""
    if _keeps_only_done(how):
        return True
    if not (isinstance(how, tuple) and how[0] == "item" and how[1] == 0):
        return False
    value = how[2]
    if not isinstance(value, cst.Await) or not isinstance(value.expression, cst.Call):
        return False
    return resolve_call(value.expression) in knowledge.DONE_SET_WAITS


def _keeps_only_done(value) -> bool:
    """``[t for t in tasks if t.done()]``, a set or generator of the same, or ``tuple()`` / ``list()``
    / ``set()`` of one: one ``for`` whose target is a name, and among its conditions ``t.done()``
    called on that very name. Every item it gives is a finished task."""
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in ("tuple", "list", "set", "frozenset") \
            and len(value.args) == 1 and not value.args[0].star:
        value = value.args[0].value
    if not isinstance(value, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
        return False
    loop = value.for_in
    if loop.inner_for_in is not None or loop.asynchronous is not None or not isinstance(loop.target, cst.Name):
        return False
    if not (isinstance(value.elt, cst.Name) and value.elt.value == loop.target.value):
        return False
    return any(
        isinstance(test, cst.Call) and not test.args and isinstance(test.func, cst.Attribute) and test.func.attr.value == "done"
        and isinstance(test.func.value, cst.Name) and test.func.value.value == loop.target.value
        for test in (condition.test for condition in loop.ifs)
    )


def _is_done_future(how, done_sets: set[str], queues: set[str]) -> bool:
    if isinstance(how, tuple) and how[0] == "for":
        return isinstance(how[1], cst.Name) and how[1].value in done_sets
    value = how.expression if isinstance(how, cst.Await) else how
    if not isinstance(value, cst.Call) or not isinstance(value.func, cst.Attribute) or value.args:
        return False
    method = value.func.attr.value
    if method not in ("get", "get_nowait") or (method == "get") != isinstance(how, cst.Await):
        return False
    return dotted_name(value.func.value) in queues


_QUEUE_CACHE: dict[int, tuple[cst.ClassDef, set[str]]] = {}


def done_queues(class_node: cst.ClassDef) -> set[str]:
    """``self.q`` for each queue attribute of the class that only ever holds finished tasks."""
    cached = _QUEUE_CACHE.get(id(class_node))
    if cached is not None and cached[0] is class_node:
        return cached[1]
    methods = [s for s in class_node.body.body if isinstance(s, cst.FunctionDef)]
    callbacks = _done_callback_parameters(class_node, methods)
    uses: dict[str, list[bool]] = {}
    for method in methods:
        for name, ok in _queue_uses(method, callbacks.get(method.name.value)):
            uses.setdefault(name, []).append(ok)
    result = {name for name, oks in uses.items() if all(oks) and _is_put_somewhere(class_node, name)}
    if len(_QUEUE_CACHE) > 256:
        _QUEUE_CACHE.clear()
    _QUEUE_CACHE[id(class_node)] = (class_node, result)
    return result


def done_callback_methods(class_node: cst.ClassDef) -> dict[str, str]:
    """method name -> its future parameter, for every method of the class used only as
    ``x.add_done_callback(self.method)`` there."""
    return _done_callback_parameters(class_node, [s for s in class_node.body.body if isinstance(s, cst.FunctionDef)])


def _done_callback_parameters(class_node: cst.ClassDef, methods: list) -> dict[str, str]:
    """method name -> its task parameter, for every method used only as
    ``x.add_done_callback(self.method)`` in the class."""
    registered: dict[str, int] = {}
    mentioned: dict[str, int] = {}

    class _Finder(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == knowledge.DONE_CALLBACK_REGISTRATION and len(node.args) == 1:
                name = dotted_name(node.args[0].value)
                if name and name.startswith("self.") and name.count(".") == 1:
                    registered[name[5:]] = registered.get(name[5:], 0) + 1

        def visit_Attribute(self, node: cst.Attribute) -> None:
            if isinstance(node.value, cst.Name) and node.value.value == "self":
                mentioned[node.attr.value] = mentioned.get(node.attr.value, 0) + 1

    walk(class_node, _Finder())
    result = {}
    for method in methods:
        name = method.name.value
        params = method.params.params
        if registered.get(name) and registered[name] == mentioned.get(name) and len(params) == 2 and not method.decorators:
            result[name] = params[1].name.value
    return result


def _queue_uses(method: cst.FunctionDef, task_param: Optional[str]):
    """(``self.x``, whether this use keeps it a queue of finished tasks) for each use of a
    ``self.x`` attribute in ``method``: assigning it, reading it with a queue method, or putting
    the done-callback's task parameter (never rebound) into it."""
    rebound = task_param is not None and len(_bindings(method).get(task_param, [])) != 1
    uses = []

    class _Finder(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> bool:
            name = dotted_name(node)
            if not (name and name.startswith("self.") and name.count(".") == 1):
                return True
            uses.append((name, id(node)))
            return True

    walk(method, _Finder())
    verdicts: dict[int, bool] = {}

    class _Judge(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                verdicts[id(target.target)] = True

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            verdicts[id(node.target)] = True

        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if not isinstance(func, cst.Attribute):
                return
            method_name = func.attr.value
            if method_name in _QUEUE_READS:
                verdicts[id(func.value)] = True
            elif method_name in _QUEUE_PUTS:
                arg = node.args[0].value if len(node.args) == 1 and not node.args[0].keyword else None
                verdicts[id(func.value)] = (
                    task_param is not None and not rebound and isinstance(arg, cst.Name) and arg.value == task_param
                )

    walk(method, _Judge())
    return [(name, verdicts.get(node_id, False)) for name, node_id in uses]


def _is_put_somewhere(class_node: cst.ClassDef, name: str) -> bool:
    found = False

    class _Finder(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in _QUEUE_PUTS and dotted_name(func.value) == name:
                found = True

    walk(class_node, _Finder())
    return found


def awaits_only_timed_out_futures(body: cst.CSTNode, ancestors: list, resolve_call: Resolver, resolve: Callable[["cst.BaseExpression"], Optional[str]]) -> bool:
    """Is every suspension point in ``body`` a plain ``await t`` where ``t`` is a future that
    ``asyncio.wait_for`` timed out on: ``body`` lies in the ``except TimeoutError`` handler of a
    ``try`` whose body awaits ``asyncio.wait_for(t, ...)`` (``ancestors``: from the module down to
    ``body``), and nothing in the handler binds ``t`` again?"""
    wanted = _plain_awaited_names(body)
    if wanted is None:
        return False
    for index in range(len(ancestors) - 1, 0, -1):
        handler, try_node = ancestors[index], ancestors[index - 1]
        if isinstance(handler, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return False
        if not (isinstance(handler, cst.ExceptHandler) and isinstance(try_node, cst.Try)):
            continue
        if not _catches_timeout(handler, resolve):
            continue
        timed_out = {
            call.args[0].value.value
            for call in _awaited_calls(try_node.body)
            if call.args and isinstance(call.args[0].value, cst.Name) and resolve_call(call) in knowledge.WAIT_FOR_CALLS
        }
        if wanted <= timed_out and not (wanted & set(_bindings(handler))):
            return True
    return False


def _catches_timeout(handler: "cst.ExceptHandler", resolve: Callable[["cst.BaseExpression"], Optional[str]]) -> bool:
    types = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type] if handler.type is not None else []
    for item in types:
        node = item.value if isinstance(item, cst.Element) else item
        if (resolve(node) or dotted_name(node)) in knowledge.WAIT_FOR_TIMEOUT_ERRORS:
            return True
    return False


def _awaited_calls(body: cst.CSTNode) -> list:
    """The calls awaited directly (``await f(...)``) in a body, not in nested functions."""
    return [point.expression for point in suspension_points(body) if isinstance(point, cst.Await) and isinstance(point.expression, cst.Call)]
