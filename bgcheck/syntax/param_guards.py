"""Constants through arguments, on the ast of one function: which of its parameters decide whether a
call runs (``if start_scheduler: CronTab(app).start()``), what constant or parameter each call hands
on (``create_app(start_scheduler=start_scheduler)``, ``wait_up(url, http=True)``) and which
parameters default to a constant. The project index combines them along call chains: a call
guarded by a parameter that every caller along the chain leaves at a value the guard rejects never
runs there (ProjectIndex._callees_as).

A value is what a guard can test without running anything: ("c", truthy, is_none) for a constant,
("p", name) for a parameter handed on as it came, ("u",) for anything else. A guard is
(parameter, "truthy" or "none", the outcome the call needs)."""

from __future__ import annotations

import ast
from typing import Callable, NamedTuple, Optional

from bgcheck.syntax.ast_ir import call_target, dotted_name

UNKNOWN_VALUE = ("u",)

_SKIPPED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def constant_value(node: Optional[ast.expr]) -> Optional[tuple]:
    """("c", truthy, is_none) for a literal whose truth needs nothing run: ``None``, ``True``, ``0``,
    ``"x"``, an empty or literal tuple, list, dict or set; None otherwise."""
    if type(node) is ast.Constant:
        return ("c", bool(node.value), node.value is None)
    if type(node) in (ast.Tuple, ast.List, ast.Set) and not any(type(e) is ast.Starred for e in node.elts):
        return ("c", bool(node.elts), False)
    if type(node) is ast.Dict and None not in node.keys:
        return ("c", bool(node.keys), False)
    return None


def param_defaults(args: ast.arguments) -> tuple[tuple[str, bool, bool], ...]:
    """(parameter, truthy, is_none) of each parameter whose default is such a literal."""
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
    pairs += [(arg, default) for arg, default in zip(args.kwonlyargs, args.kw_defaults) if default is not None]
    found = []
    for arg, default in pairs:
        value = constant_value(default)
        if value is not None:
            found.append((arg.arg, value[1], value[2]))
    return tuple(found)


def positional_count(args: ast.arguments) -> int:
    return len(args.posonlyargs) + len(args.args)


def call_guards(node: ast.AST, params: set[str], global_key: Optional[Callable[[ast.expr], Optional[str]]] = None) -> dict[int, frozenset]:
    """id(call) -> the guards that must all hold for that call of the function's own body to run,
    for the calls under an ``if`` on a parameter (its body or ``else``), after ``if not param:
    return`` (or ``raise``, ``continue``, ``break``: the rest of that block), or on the right of
    ``param and ...``. Calls with no guard are left out. ``params``: the parameters it may test
    (the function binds them nowhere else: the summary knows). ``global_key``, when given, names
    the module constants and settings a test reads (``if settings.SYNC:``, ``if not USE_MIRROR:``):
    the key of their guards ("@" and the resolved path), None for anything else."""
    found: dict[int, frozenset] = {}
    if params or global_key is not None:
        _block(node.body, frozenset(), _Reads(frozenset(params), global_key), found)
    return found


class _Reads(NamedTuple):
    params: frozenset  # the parameters a test may name
    global_key: Optional[Callable[[ast.expr], Optional[str]]]  # the key of a constant or setting a test reads


def _block(statements: list, guards: frozenset, reads: "_Reads", found: dict) -> None:
    for statement in statements:
        if type(statement) in _SKIPPED:
            continue
        if type(statement) is ast.If:
            _expression(statement.test, guards, reads, found)
            otherwise = guards | _condition(statement.test, False, reads)
            _block(statement.body, guards | _condition(statement.test, True, reads), reads, found)
            _block(statement.orelse, otherwise, reads, found)
            # ``if not p: return``: the rest of the block runs only when p (what follows an exit in
            # its block, ``return; "..."``, never runs)
            if not statement.orelse and any(type(inner) in _EXITS for inner in statement.body):
                guards = otherwise
            continue
        for _field, value in ast.iter_fields(statement):
            if isinstance(value, list) and value and all(isinstance(item, ast.stmt) for item in value):
                _block(value, guards, reads, found)
            elif isinstance(value, list):
                for item in value:
                    if type(item) is ast.ExceptHandler:
                        if item.type is not None:
                            _expression(item.type, guards, reads, found)
                        _block(item.body, guards, reads, found)
                    elif type(item) is ast.match_case:
                        _block(item.body, guards, reads, found)
                    elif isinstance(item, ast.AST):
                        _expression(item, guards, reads, found)
            elif isinstance(value, ast.AST):
                _expression(value, guards, reads, found)


def _expression(node: ast.AST, guards: frozenset, reads: "_Reads", found: dict) -> None:
    if type(node) in _SKIPPED or type(node) is ast.Lambda:
        return
    if type(node) is ast.BoolOp:
        # ``flag and f()``: f runs only when flag is true; ``flag or f()`` only when it is false
        wanted = type(node.op) is ast.And
        held = guards
        for value in node.values:
            _expression(value, held, reads, found)
            held = held | _condition(value, wanted, reads)
        return
    if type(node) is ast.IfExp:
        _expression(node.test, guards, reads, found)
        _expression(node.body, guards | _condition(node.test, True, reads), reads, found)
        _expression(node.orelse, guards | _condition(node.test, False, reads), reads, found)
        return
    if type(node) is ast.Call and guards:
        found[id(node)] = guards
    for child in ast.iter_child_nodes(node):
        _expression(child, guards, reads, found)


def _condition(test: ast.expr, outcome: bool, reads: "_Reads") -> frozenset:
    """The guards that hold where ``test`` came out as ``outcome``."""
    if type(test) is ast.UnaryOp and type(test.op) is ast.Not:
        return _condition(test.operand, not outcome, reads)
    if type(test) is ast.BoolOp and (type(test.op) is ast.And) == outcome:
        # every part of a true ``and`` is true; every part of a false ``or`` is false
        return frozenset().union(*(_condition(value, outcome, reads) for value in test.values))
    if (type(test) is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) in (ast.Is, ast.IsNot)
            and type(test.comparators[0]) is ast.Constant and test.comparators[0].value is None):
        key = _key(test.left, reads)
        return frozenset({(key, "none", outcome if type(test.ops[0]) is ast.Is else not outcome)}) if key else frozenset()
    key = _key(test, reads)
    return frozenset({(key, "truthy", outcome)}) if key else frozenset()


def _key(node: ast.expr, reads: "_Reads") -> Optional[str]:
    """What a guard on ``node`` is keyed by: a parameter's name, a global's "@" key, or None."""
    if type(node) is ast.Name and node.id in reads.params:
        return node.id
    if reads.global_key is not None and type(node) in (ast.Name, ast.Attribute):
        return reads.global_key(node)
    return None


def global_key(read: set[str], resolve) -> Callable[[ast.expr], Optional[str]]:
    """``call_guards``' ``global_key`` for a function: the key of a guard on a global a condition
    reads (``settings.SYNC`` -> "@django.conf.settings.SYNC"), for the names in ``read`` (not
    bound in the function), resolved with the module's ``resolve``; None for anything else."""
    def key(expr: ast.expr) -> Optional[str]:
        name = dotted_name(expr)
        if name is None or name.split(".", 1)[0] not in read:
            return None
        path = call_target(expr, resolve)
        return "@" + path if path else None
    return key


def call_arguments(call: ast.Call, params: set[str]) -> Optional[dict]:
    """What a call hands on, by keyword name or position: a constant, a parameter of the calling
    function (not bound again: ``params``), or unknown; None when it unpacks ``*args`` or
    ``**kwargs`` (any parameter may be given there)."""
    given: dict = {}
    for position, argument in enumerate(call.args):
        if type(argument) is ast.Starred:
            return None
        given[position] = argument_value(argument, params)
    for keyword in call.keywords:
        if keyword.arg is None:
            return None
        given[keyword.arg] = argument_value(keyword.value, params)
    return given


def argument_value(node: ast.expr, params: set[str]) -> tuple:
    constant = constant_value(node)
    if constant is not None:
        return constant
    if type(node) is ast.Name and node.id in params:
        return ("p", node.id)
    return UNKNOWN_VALUE


def contradicts(guard: tuple, value: tuple) -> bool:
    """Does a known value of the guard's parameter make the guard fail?"""
    _param, kind, outcome = guard
    if value[0] != "c":
        return False
    held = value[1] if kind == "truthy" else value[2]
    return held != outcome
