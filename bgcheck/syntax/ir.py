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

The rest of bgcheck reads nodes through the accessors at the end of this module (``as_call``,
``call_name``, ``callee_name``, ``ref_name``, ``seq_items``, ...) rather than by position, so
that the tuples' layout is known here and in the cache's codec (load/serial.py).
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Callable, NamedTuple, Optional

from bgcheck import knowledge

IR = tuple
UNKNOWN_IR: IR = ("?",)

# Folding is bounded: a repository must not be able to make it allocate or loop without end
# (``"%09999999999d" % 1``, ``((10**64)**64)**64``, constants that each double the previous
# one). Whatever would exceed these limits is UNKNOWN, never evaluated.
MAX_INT_BITS = 256  # far beyond any timeout or size; every such int converts to a finite float
MAX_STR_CHARS = 10_000
MAX_FOLD_STEPS = 10_000  # IR nodes visited by one top-level fold (references are followed again each time)
MAX_FOLD_DEPTH = 60


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
# names

# A name resolver turns a dotted name as written (``stripe.Charge.create``,
# ``TTL``) into an expression: ("ref", qualified) for globals, the inlined
# binding for locals, or None when the name is unknown.
NameResolver = Callable[[str], Optional[IR]]


def ir_path(ir: IR | None) -> str | None:
    """The dotted path an IR denotes as a receiver: a ref, or an instance made by a call."""
    if ir is None:
        return None
    if ir[0] == "ref":
        return ir[1]
    call = as_call(ir)
    inner = call.first_arg if call is not None and call.target in PARTIALS else None
    if inner is not None and inner[0] in ("ref", "call"):
        # ``functools.partial(ThreadPoolExecutor, 4)`` is called like ThreadPoolExecutor itself
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




class _Budget:
    """One top-level fold's step allowance, and the scalar constants it has folded (so that a
    chain of constants each built from the previous ones folds in linear time). Containers are
    not remembered: shared, they could stand for exponentially large values."""

    __slots__ = ("steps", "scalars")

    def __init__(self) -> None:
        self.steps = MAX_FOLD_STEPS
        self.scalars: dict = {}


class _OutOfBudget(Exception):
    pass


def fold(ir: IR | None, lookup: ConstantLookup):
    """Evaluate an IR to a Python value (numbers, str, TimeDelta, containers), or UNKNOWN.

    Bounded (MAX_FOLD_STEPS, MAX_FOLD_DEPTH, MAX_INT_BITS, MAX_STR_CHARS): past a limit the
    whole value is UNKNOWN. Never raises on what a repository can write."""
    try:
        return _fold(ir, lookup, frozenset(), 0, _Budget())
    except (_OutOfBudget, RecursionError, MemoryError):
        return UNKNOWN


def _fold(ir: IR | None, lookup: ConstantLookup, _seen: frozenset, _depth: int, budget: _Budget):
    if ir is None or _depth > MAX_FOLD_DEPTH or not isinstance(ir, tuple) or not ir:
        return UNKNOWN
    budget.steps -= 1
    if budget.steps < 0:
        raise _OutOfBudget
    d = _depth + 1
    tag = ir[0]
    if tag == "v":
        return _bounded(ir[1])
    if tag == "ref":
        name = ir[1]
        if name in _seen:
            return UNKNOWN  # a cycle of constants
        known = budget.scalars.get(name, budget)
        if known is not budget:
            return known
        target = lookup(name)
        if target is None:
            return UNKNOWN
        value = _fold(target, lookup, _seen | {name}, d, budget)
        if value is UNKNOWN or isinstance(value, (int, float, str, bytes, TimeDelta)) or value is None:
            budget.scalars[name] = value
        return value
    if tag == "neg":
        value = _fold(ir[1], lookup, _seen, d, budget)
        if isinstance(value, TimeDelta):
            return TimeDelta(-value.seconds)
        if _is_number(value):
            return -value
        return UNKNOWN
    if tag == "bin":
        left = _fold(ir[2], lookup, _seen, d, budget)
        if left is UNKNOWN:
            return UNKNOWN
        return _fold_binop(ir[1], left, _fold(ir[3], lookup, _seen, d, budget))
    if tag == "total_seconds":
        value = _fold(ir[1], lookup, _seen, d, budget)
        return value.seconds if isinstance(value, TimeDelta) else UNKNOWN
    if tag == "call":
        if ir[1] in _TIMEDELTA_NAMES and len(ir) >= 4:
            return _fold_timedelta(ir, lookup, _seen, d, budget)
        return UNKNOWN
    if tag == "seq":
        items = tuple(_fold(item, lookup, _seen, d, budget) for item in ir[2])
        return list(items) if ir[1] == "list" else items
    if tag == "dict":
        result = {}
        for key, value in ir[1]:
            if key is None:
                return UNKNOWN
            folded_key = _fold(key, lookup, _seen, d, budget)
            if folded_key is UNKNOWN or not _hashable(folded_key):
                return UNKNOWN
            result[folded_key] = _fold(value, lookup, _seen, d, budget)
        return result
    return UNKNOWN


def _bounded(value):
    """A value within the limits, else UNKNOWN (also: floats that are not finite)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value if value.bit_length() <= MAX_INT_BITS else UNKNOWN
    if isinstance(value, float):
        return value if math.isfinite(value) else UNKNOWN
    if isinstance(value, (str, bytes)):
        return value if len(value) <= MAX_STR_CHARS else UNKNOWN
    return UNKNOWN  # complex ((-8) ** 0.5) and anything else


def _hashable(value) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _int_result_fits(op: str, left, right) -> bool:
    """Would ``left op right`` (ints) stay within MAX_INT_BITS? Decided before computing it."""
    if op in ("+", "-"):
        return max(left.bit_length(), right.bit_length()) < MAX_INT_BITS
    if op == "*":
        return left.bit_length() + right.bit_length() <= MAX_INT_BITS
    if op == "**":
        if right < 0 or abs(left) <= 1:
            return True  # a float, or -1, 0, 1 (0 ** -1 raises ZeroDivisionError, caught)
        return right <= MAX_INT_BITS and right * (left.bit_length() - 1) < MAX_INT_BITS
    return True  # / // % never grow


def _fold_binop(op: str, left, right):
    if left is UNKNOWN or right is UNKNOWN:
        return UNKNOWN
    if isinstance(left, TimeDelta) or isinstance(right, TimeDelta):
        return _fold_timedelta_binop(op, left, right)
    if _is_number(left) and _is_number(right):
        if isinstance(left, int) and isinstance(right, int):
            if not _int_result_fits(op, left, right):
                return UNKNOWN
        elif op == "**" and abs(right) > MAX_INT_BITS:
            return UNKNOWN
        try:
            return _bounded(_ARITH[op](left, right))
        except (ArithmeticError, ValueError, TypeError):  # OverflowError, ZeroDivisionError, complex results
            return UNKNOWN
    if op == "+" and isinstance(left, str) and isinstance(right, str):
        return _bounded(left + right) if len(left) + len(right) <= MAX_STR_CHARS else UNKNOWN
    if op == "%" and isinstance(left, str):
        return _format_percent(left, right)
    return UNKNOWN


# A printf-style conversion: its flags, width and precision (``%-08.3f``, ``%(name)s``, ``%*d``).
_PERCENT_SPEC = knowledge.LazyPattern(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


def _format_percent(template: str, args):
    """``template % args`` when the result is bounded: every argument a plain scalar, and no width
    or precision that could make it longer than MAX_STR_CHARS (checked before formatting)."""
    values = args if isinstance(args, tuple) else tuple(args.values()) if isinstance(args, dict) else (args,)
    longest = 0
    for value in values:
        if isinstance(value, str):
            longest = max(longest, len(value))
        elif _is_number(value) or isinstance(value, bool) or value is None:
            longest = max(longest, 100)  # a bounded int is at most 78 digits; a float's repr is shorter
        else:
            return UNKNOWN
    conversions = 0
    widest = 0
    for match in _PERCENT_SPEC.finditer(template):
        conversions += 1
        for number in match.groups():
            if number == "*":
                return UNKNOWN
            if number is not None:
                if len(number) > 5:
                    return UNKNOWN
                widest = max(widest, int(number))
    if len(template) + conversions * (longest + widest) > MAX_STR_CHARS:
        return UNKNOWN
    try:
        return _bounded(template % args)
    except (TypeError, ValueError, KeyError, ArithmeticError):
        return UNKNOWN


def _fold_timedelta_binop(op: str, left, right):
    try:
        if isinstance(left, TimeDelta) and isinstance(right, TimeDelta):
            if op == "+":
                return _timedelta(left.seconds + right.seconds)
            if op == "-":
                return _timedelta(left.seconds - right.seconds)
            if op == "/" and right.seconds:
                return _bounded(left.seconds / right.seconds)
            return UNKNOWN
        if op == "*":
            if isinstance(left, TimeDelta) and _is_number(right):
                return _timedelta(left.seconds * right)
            if isinstance(right, TimeDelta) and _is_number(left):
                return _timedelta(right.seconds * left)
        if op in ("/", "//") and isinstance(left, TimeDelta) and _is_number(right) and right:
            return _timedelta(left.seconds / right if op == "/" else left.seconds // right)
    except ArithmeticError:
        return UNKNOWN
    return UNKNOWN


def _timedelta(seconds) -> "TimeDelta | _Unknown":
    seconds = float(seconds)  # both operands are bounded: finite or inf, never an OverflowError
    return TimeDelta(seconds) if math.isfinite(seconds) else UNKNOWN


def _fold_timedelta(ir: IR, lookup: ConstantLookup, seen: frozenset, depth: int, budget: _Budget):
    args, kwargs = ir[2], ir[3]
    total = 0.0
    if len(args) > len(_TIMEDELTA_POSITIONAL):
        return UNKNOWN
    named = list(zip(_TIMEDELTA_POSITIONAL, args)) + list(kwargs)
    for key, expr in named:
        factor = _TIMEDELTA_FACTORS.get(key)
        value = _fold(expr, lookup, seen, depth, budget)
        if factor is None or not _is_number(value):
            return UNKNOWN
        total += float(value) * factor  # bounded numbers: finite floats
    return _timedelta(total)


def as_seconds(value) -> float | None:
    """A folded number or timedelta as seconds, else None."""
    if isinstance(value, TimeDelta):
        seconds = value.seconds
    elif _is_number(value):
        try:
            seconds = float(value)
        except OverflowError:  # an int past MAX_INT_BITS that did not come from fold()
            return None
    else:
        return None
    return seconds if math.isfinite(seconds) else None


class Call(NamedTuple):
    """Named parts of a ("call", target, args, kwargs[, receiver]) IR node. A view made by
    ``as_call``: the IR itself stays a plain tuple (the shape the cache stores, serial.py)."""

    target: str | None  # the callee as resolved in its module ("pkg.mod.f", "?.method"), or None
    args: tuple  # positional arguments' IR; ("*",) marks a splat
    kwargs: tuple  # (name, IR) pairs; a name of "*"/"**" marks a splat
    receiver: IR | None = None  # ``x`` of ``x.method(...)`` when x is a call or built from one

    @property
    def first_arg(self) -> IR | None:
        return self.args[0] if self.args else None

    def keyword(self, name: str) -> IR | None:
        for key, value in self.kwargs:
            if key == name:
                return value
        return None

    @property
    def named(self) -> dict:
        """The keyword arguments by name, ``**`` splats left out."""
        return {key: value for key, value in self.kwargs if key not in ("*", "**")}

    def arg(self, position: int) -> IR | None:
        """The positional argument at ``position``, or None when there are fewer."""
        return self.args[position] if len(self.args) > position else None


def as_call(ir: IR | None) -> Call | None:
    """The named parts of a call IR, or None when ``ir`` is not a call."""
    if not ir or ir[0] != "call":
        return None
    return Call(ir[1], ir[2], ir[3], ir[4] if len(ir) > 4 else None)


def call_name(ir: IR | None) -> str | None:
    """The callee of a ("call", ...) IR (None also when it does not resolve), or None for any other node."""
    return ir[1] if ir and ir[0] == "call" else None


def callee_name(ir: IR | None) -> str | None:
    """The name a decorator or a ``with`` item names, called or not: the name of a ("ref", name) IR
    or the callee of a ("call", ...) IR (None when it does not resolve); None for any other node."""
    return ir[1] if ir and ir[0] in ("ref", "call") else None


def is_literal(ir: IR | None) -> bool:
    """Is this a ("v", value) literal (any value, None included)?"""
    return bool(ir) and ir[0] == "v"


def seq_items(ir: IR | None) -> tuple | None:
    """The items' IR of a ("seq", kind, items) tuple, list or set, or None for any other node."""
    return ir[2] if ir and ir[0] == "seq" else None


def fstr_parts(ir: IR | None) -> tuple | None:
    """The parts of an ("fstr", parts) f-string (text, or the IR of a placeholder), or None."""
    return ir[1] if ir and ir[0] == "fstr" else None


def attribute(ir: IR | None) -> tuple[IR, str] | None:
    """(the IR of ``x``, ``name``) of an ("attr", x, name) node, or None for any other node."""
    return (ir[1], ir[2]) if ir and ir[0] == "attr" else None


def sub_nodes(ir: IR) -> tuple:
    """The IR nodes directly inside a node: a call's arguments, keyword values and receiver, an
    operation's operands, a container's items (a dict's keys and values), an f-string's placeholders."""
    tag = ir[0]
    if tag == "call":
        return (*ir[2], *(value for _key, value in ir[3]), *ir[4:])
    if tag == "bin":
        return (ir[2], ir[3])
    if tag in ("neg", "total_seconds", "attr"):
        return (ir[1],)
    if tag == "seq":
        return ir[2]
    if tag == "dict":
        return tuple(part for pair in ir[1] for part in pair if part is not None)
    if tag == "fstr":
        return tuple(part for part in ir[1] if not isinstance(part, str))
    return ()


def with_call_targets(ir: IR, rename: Callable[[str], str | None]) -> IR:
    """The IR with each call's target renamed (``rename``: resolved name -> canonical name), in the
    calls' arguments, operands and containers too (a receiver, an attribute's base and an
    f-string's placeholders are kept as they are)."""
    if not isinstance(ir, tuple) or not ir:
        return ir
    tag = ir[0]
    if tag == "call":
        target = rename(ir[1]) if ir[1] else ir[1]
        args = tuple(with_call_targets(a, rename) for a in ir[2])
        kwargs = tuple((item[0], with_call_targets(item[1], rename)) if len(item) > 1 else item for item in ir[3])
        return ("call", target, args, kwargs, *ir[4:])
    if tag == "bin":
        return (tag, ir[1], with_call_targets(ir[2], rename), with_call_targets(ir[3], rename))
    if tag in ("neg", "total_seconds"):
        return (tag, with_call_targets(ir[1], rename), *ir[2:])
    if tag == "seq":
        return (tag, ir[1], tuple(with_call_targets(v, rename) for v in ir[2]))
    if tag == "dict":
        return (tag, tuple((with_call_targets(k, rename) if k is not None else None, with_call_targets(v, rename)) for k, v in ir[1]))
    return ir


def ref_name(ir: IR | None) -> str | None:
    """The qualified name a ("ref", name) IR denotes, or None for any other node."""
    return ir[1] if ir and ir[0] == "ref" else None


def string_literal(ir: IR | None) -> str | None:
    """The text of a ("v", "...") string literal, or None for any other node."""
    return ir[1] if ir and ir[0] == "v" and isinstance(ir[1], str) else None


def dict_entries(ir: IR | None) -> tuple | None:
    """The (key IR, value IR) pairs of a ("dict", ...) IR (a key of None marks a ``**`` splat), or None."""
    return ir[1] if ir and ir[0] == "dict" else None
