"""A small, picklable expression form for constant folding.

Rules ask "what number is this lock TTL?" or "what does this setting hold?".
The answer may live in another module, so expressions are first turned into
this plain-tuple form (``to_ir``), with every global name already resolved to
a qualified name; ``fold`` then evaluates it against the project index. What
does not fold is ``UNKNOWN``: never guessed.

Shapes (all tuples, first item is the tag):
    ("v", value)                      a literal: int, float, str, bytes, bool, None
    ("ref", "pkg.mod.NAME")           a global name, resolved later through the index
    ("bin", op, left, right)          + - * / // % **
    ("neg", operand)                  unary minus (plus is dropped)
    ("call", "qual.name", args, kwargs[, receiver])
                                      kwargs: tuple of (name, expr); ("*",)/("**",) mark splats;
                                      receiver: the IR of ``x`` in ``x.method(...)`` when x is
                                      itself a call or built from one (``every(10).minutes.do(f)``)
    ("total_seconds", expr)           expr.total_seconds()
    ("attr", expr, name)              any other attribute of a non-name expression
    ("seq", kind, items)              kind: "tuple" | "list" | "set"
    ("dict", ((key, value), ...))     a key of None marks a ``**`` splat
    ("fstr", parts)                   parts: str or expr (kept for key patterns)
    ("?",)                            unknown
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Callable, Optional

import libcst as cst

from bgcheck import knowledge

IR = tuple
UNKNOWN_IR: IR = ("?",)


class _Unknown:
    """The result of folding something that does not fold."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self):
        return (_Unknown, ())


UNKNOWN = _Unknown()


@dataclass(frozen=True)
class TimeDelta:
    """A folded ``datetime.timedelta``, kept apart from plain numbers so that
    APIs which treat the two differently (redis ``ex=``) can tell them apart."""

    seconds: float


# ---------------------------------------------------------------------------
# CST -> IR

# A name resolver turns a dotted name as written (``stripe.Charge.create``,
# ``TTL``) into an expression: ("ref", qualified) for globals, the inlined
# binding for locals, or None when the name is unknown.
NameResolver = Callable[[str], Optional[IR]]

_BINOPS = {
    cst.Add: "+",
    cst.Subtract: "-",
    cst.Multiply: "*",
    cst.Divide: "/",
    cst.FloorDivide: "//",
    cst.Modulo: "%",
    cst.Power: "**",
}


def dotted_name(node: cst.CSTNode) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


def _literal_string(node: cst.BaseString) -> IR:
    if isinstance(node, cst.SimpleString):
        try:
            return ("v", node.evaluated_value)
        except Exception:  # pragma: no cover - malformed escape
            return UNKNOWN_IR
    if isinstance(node, cst.ConcatenatedString):
        left = _literal_string(node.left)
        right = _literal_string(node.right)
        if left[0] == "v" and right[0] == "v" and type(left[1]) is type(right[1]):
            return ("v", left[1] + right[1])
        return UNKNOWN_IR
    return UNKNOWN_IR


def to_ir(node: cst.BaseExpression, resolve: NameResolver, depth: int = 0) -> IR:
    """Convert a CST expression. ``resolve`` maps names as written to IR."""
    if depth > 40:
        return UNKNOWN_IR
    d = depth + 1
    if isinstance(node, cst.Integer):
        return ("v", int(node.value.replace("_", ""), 0)) if not _is_legacy_octal(node.value) else UNKNOWN_IR
    if isinstance(node, cst.Float):
        return ("v", float(node.value.replace("_", "")))
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        return _literal_string(node)
    if isinstance(node, cst.FormattedString):
        parts: list = []
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                parts.append(part.value)
            elif isinstance(part, cst.FormattedStringExpression):
                parts.append(to_ir(part.expression, resolve, d))
        return ("fstr", tuple(parts))
    if isinstance(node, cst.Name):
        if node.value in ("True", "False", "None"):
            return ("v", {"True": True, "False": False, "None": None}[node.value])
        return resolve(node.value) or UNKNOWN_IR
    if isinstance(node, cst.Attribute):
        name = dotted_name(node)
        if name is not None:
            return resolve(name) or UNKNOWN_IR
        return ("attr", to_ir(node.value, resolve, d), node.attr.value)
    if isinstance(node, cst.UnaryOperation):
        operand = to_ir(node.expression, resolve, d)
        if isinstance(node.operator, cst.Minus):
            return ("neg", operand)
        if isinstance(node.operator, cst.Plus):
            return operand
        return UNKNOWN_IR
    if isinstance(node, cst.BinaryOperation):
        op = _BINOPS.get(type(node.operator))
        if op is None:
            return UNKNOWN_IR
        return ("bin", op, to_ir(node.left, resolve, d), to_ir(node.right, resolve, d))
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        kind = {cst.Tuple: "tuple", cst.List: "list", cst.Set: "set"}[type(node)]
        items = []
        for el in node.elements:
            if isinstance(el, cst.StarredElement):
                items.append(UNKNOWN_IR)
            else:
                items.append(to_ir(el.value, resolve, d))
        return ("seq", kind, tuple(items))
    if isinstance(node, cst.Dict):
        pairs = []
        for el in node.elements:
            if isinstance(el, cst.DictElement):
                pairs.append((to_ir(el.key, resolve, d), to_ir(el.value, resolve, d)))
            else:
                pairs.append((None, to_ir(el.value, resolve, d)))
        return ("dict", tuple(pairs))
    if isinstance(node, cst.Call):
        return call_to_ir(node, resolve, d)
    return UNKNOWN_IR


def _is_legacy_octal(text: str) -> bool:
    return len(text) > 1 and text[0] == "0" and text[1].isdigit()


def call_to_ir(node: cst.Call, resolve: NameResolver, depth: int = 0) -> IR:
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value == "total_seconds" and not node.args:
        return ("total_seconds", to_ir(func.value, resolve, depth + 1))
    target = call_target(func, resolve) or _written_target(func)
    args: list = []
    kwargs: list = []
    for arg in node.args:
        if arg.star == "*":
            args.append(("*",))
        elif arg.star == "**":
            kwargs.append(("**", to_ir(arg.value, resolve, depth + 1)))
        elif arg.keyword is not None:
            kwargs.append((arg.keyword.value, to_ir(arg.value, resolve, depth + 1)))
        else:
            args.append(to_ir(arg.value, resolve, depth + 1))
    if isinstance(func, cst.Attribute) and dotted_name(func.value) is None:
        return ("call", target, tuple(args), tuple(kwargs), to_ir(func.value, resolve, depth + 1))
    return ("call", target, tuple(args), tuple(kwargs))


def _written_target(func: cst.BaseExpression) -> str | None:
    """A call target that does not resolve, kept as written and marked with "?" (``?sender.add_periodic_task``),
    so name-based tables still see it while it never equals a qualified name."""
    written = dotted_name(func)
    if written is None and isinstance(func, cst.Attribute):
        written = "." + func.attr.value
    return f"?{written}" if written else None


def call_target(func: cst.BaseExpression, resolve: NameResolver) -> str | None:
    """The qualified name a called expression resolves to, or None.

    ``x.lock`` where ``x = redis.Redis()`` resolves to ``redis.Redis().lock``:
    a trailing ``()`` marks "an instance returned by calling this".
    """
    name = dotted_name(func)
    if name is not None:
        return ir_path(resolve(name))
    if isinstance(func, cst.Attribute):
        base = call_target_of_value(func.value, resolve)
        return f"{base}.{func.attr.value}" if base else None
    return None


def call_target_of_value(node: cst.BaseExpression, resolve: NameResolver) -> str | None:
    """The path of an expression used as a receiver: ``Foo()`` -> ``pkg.Foo()``."""
    if isinstance(node, cst.Call):
        inner = call_target(node.func, resolve)
        return f"{inner}()" if inner else None
    name = dotted_name(node)
    if name is not None:
        return ir_path(resolve(name))
    if isinstance(node, cst.Attribute):
        base = call_target_of_value(node.value, resolve)
        return f"{base}.{node.attr.value}" if base else None
    return None


def ir_path(ir: IR | None) -> str | None:
    """The dotted path an IR denotes as a receiver: a ref, or an instance made by a call."""
    if ir is None:
        return None
    if ir[0] == "ref":
        return ir[1]
    if ir[0] == "call" and ir[1] in PARTIALS and ir[2] and ir[2][0][0] in ("ref", "call"):
        # ``functools.partial(ThreadPoolExecutor, 4)`` is called like ThreadPoolExecutor itself
        inner = ir[2][0]
        return inner[1] if inner[0] == "ref" else ir_path(inner)
    if ir[0] == "call" and ir[1]:
        return ir[1] + "()"
    return None


PARTIALS = knowledge.PARTIALS


# ---------------------------------------------------------------------------
# folding

ConstantLookup = Callable[[str], Optional[IR]]

_TIMEDELTA_NAMES = ("datetime.timedelta",)
_TIMEDELTA_POSITIONAL = ("days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks")
_TIMEDELTA_FACTORS = {
    "days": 86400.0,
    "seconds": 1.0,
    "microseconds": 1e-6,
    "milliseconds": 1e-3,
    "minutes": 60.0,
    "hours": 3600.0,
    "weeks": 604800.0,
}

_ARITH = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
}


def fold(ir: IR | None, lookup: ConstantLookup, _seen: frozenset = frozenset(), _depth: int = 0):
    """Evaluate an IR to a Python value (numbers, str, TimeDelta, containers), or UNKNOWN."""
    if ir is None or _depth > 60:
        return UNKNOWN
    d = _depth + 1
    tag = ir[0]
    if tag == "v":
        return ir[1]
    if tag == "ref":
        name = ir[1]
        if name in _seen:
            return UNKNOWN  # a cycle of constants
        target = lookup(name)
        if target is None:
            return UNKNOWN
        return fold(target, lookup, _seen | {name}, d)
    if tag == "neg":
        value = fold(ir[1], lookup, _seen, d)
        if isinstance(value, TimeDelta):
            return TimeDelta(-value.seconds)
        if _is_number(value):
            return -value
        return UNKNOWN
    if tag == "bin":
        return _fold_binop(ir[1], fold(ir[2], lookup, _seen, d), fold(ir[3], lookup, _seen, d))
    if tag == "total_seconds":
        value = fold(ir[1], lookup, _seen, d)
        return float(value.seconds) if isinstance(value, TimeDelta) else UNKNOWN
    if tag == "call":
        if ir[1] in _TIMEDELTA_NAMES:
            return _fold_timedelta(ir, lookup, _seen, d)
        return UNKNOWN
    if tag == "seq":
        items = tuple(fold(item, lookup, _seen, d) for item in ir[2])
        return list(items) if ir[1] == "list" else items
    if tag == "dict":
        result = {}
        for key, value in ir[1]:
            if key is None:
                return UNKNOWN
            folded_key = fold(key, lookup, _seen, d)
            if folded_key is UNKNOWN or not _hashable(folded_key):
                return UNKNOWN
            result[folded_key] = fold(value, lookup, _seen, d)
        return result
    return UNKNOWN


def _hashable(value) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _fold_binop(op: str, left, right):
    if left is UNKNOWN or right is UNKNOWN:
        return UNKNOWN
    if isinstance(left, TimeDelta) or isinstance(right, TimeDelta):
        return _fold_timedelta_binop(op, left, right)
    if _is_number(left) and _is_number(right):
        try:
            if op == "**" and abs(right) > 64:
                return UNKNOWN  # refuse to build huge numbers
            return _ARITH[op](left, right)
        except (ArithmeticError, ValueError, TypeError):
            return UNKNOWN
    if op == "+" and isinstance(left, str) and isinstance(right, str):
        return left + right
    if op == "%" and isinstance(left, str):
        try:
            return left % right
        except (TypeError, ValueError):
            return UNKNOWN
    return UNKNOWN


def _fold_timedelta_binop(op: str, left, right):
    if isinstance(left, TimeDelta) and isinstance(right, TimeDelta):
        if op == "+":
            return TimeDelta(left.seconds + right.seconds)
        if op == "-":
            return TimeDelta(left.seconds - right.seconds)
        if op == "/" and right.seconds:
            return left.seconds / right.seconds
        return UNKNOWN
    if op == "*":
        if isinstance(left, TimeDelta) and _is_number(right):
            return TimeDelta(left.seconds * right)
        if isinstance(right, TimeDelta) and _is_number(left):
            return TimeDelta(right.seconds * left)
    if op in ("/", "//") and isinstance(left, TimeDelta) and _is_number(right) and right:
        return TimeDelta(left.seconds / right if op == "/" else left.seconds // right)
    return UNKNOWN


def _fold_timedelta(ir: IR, lookup: ConstantLookup, seen: frozenset, depth: int):
    _tag, _target, args, kwargs = ir
    total = 0.0
    if len(args) > len(_TIMEDELTA_POSITIONAL):
        return UNKNOWN
    named = list(zip(_TIMEDELTA_POSITIONAL, args)) + list(kwargs)
    for key, expr in named:
        factor = _TIMEDELTA_FACTORS.get(key)
        value = fold(expr, lookup, seen, depth)
        if factor is None or not _is_number(value):
            return UNKNOWN
        total += value * factor
    return TimeDelta(total)


def as_seconds(value) -> float | None:
    """A folded number or timedelta as seconds, else None."""
    if isinstance(value, TimeDelta):
        return value.seconds
    if _is_number(value):
        return float(value)
    return None


def kwarg(ir: IR, name: str) -> IR | None:
    """The IR of keyword argument ``name`` in a ("call", ...) IR, or None."""
    if ir and ir[0] == "call":
        for key, value in ir[3]:
            if key == name:
                return value
    return None
