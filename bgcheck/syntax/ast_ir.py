"""CPython ``ast`` expressions -> IR (bgcheck/syntax/ir.py says what IR is): what summaries hold.

Phase 1 reads every file with CPython's parser, about ten times cheaper than libcst's; phase 2's
rules read libcst trees and convert them with bgcheck/syntax/cst_ir.py. Both must give the same
IR for the same code, so the differences between the two trees are bridged here:
``True``/``False``/``None`` are names in libcst and constants in ast (they count as names here);
a call's positional and keyword arguments are one list in libcst, in source order (put back in
that order here); ast column offsets count UTF-8 bytes, libcst's count characters.
tests/test_summary_builder.py holds the two converters to the same IR. Two differences remain,
both where ast keeps only the value: an f-string's text is evaluated here (libcst keeps ``{{`` and
escapes as written), and an f-string implicitly concatenated with a plain string folds here
(unknown in libcst).
"""

from __future__ import annotations

import ast
from typing import Optional

from bgcheck.syntax.ir import IR, MAX_STR_CHARS, UNKNOWN_IR, NameResolver, ir_path

ATTRIBUTE, NAME, CALL = 0, 1, 2  # what node_kind says

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**"}
_SINGLETON_NAMES = {True: "True", False: "False", None: "None"}
# libcst refuses to read an integer literal longer than 300 characters (it would be UNKNOWN when
# folded anyway); ast has only the value: about 300 decimal digits.
_MAX_INT_BITS_READ = 996


def singleton_name(node: ast.AST) -> Optional[str]:
    """"True", "False" or "None" for those constants (names in libcst), else None."""
    if type(node) is ast.Constant:
        value = node.value
        if value is None or value is True or value is False:
            return _SINGLETON_NAMES[value]
    return None


def node_kind(node: ast.AST) -> int:
    """ATTRIBUTE, NAME or CALL for a node of one of those kinds (``None`` is a name), else -1."""
    node_type = type(node)
    if node_type is ast.Attribute:
        return ATTRIBUTE
    if node_type is ast.Name:
        return NAME
    if node_type is ast.Call:
        return CALL
    if node_type is ast.Constant and singleton_name(node) is not None:
        return NAME
    return -1


def name_of(node: ast.AST) -> str:
    """The identifier of a NAME node (see node_kind)."""
    return node.id if type(node) is ast.Name else singleton_name(node)


def dotted_name(node: ast.AST) -> Optional[str]:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    parts: list[str] = []
    while type(node) is ast.Attribute:
        parts.append(node.attr)
        node = node.value
    if type(node) is ast.Name:
        parts.append(node.id)
    else:
        name = singleton_name(node)
        if name is None:
            return None
        parts.append(name)
    return ".".join(reversed(parts))


def arguments(call: ast.Call) -> list[tuple[Optional[str], str, ast.expr]]:
    """A call's arguments in source order: (keyword or None, star: "", "*" or "**", value), the
    value of ``*x`` and ``**x`` being ``x``."""
    out: list[tuple[Optional[str], str, ast.expr]] = []
    for arg in call.args:
        if type(arg) is ast.Starred:
            out.append((None, "*", arg.value))
        else:
            out.append((None, "", arg))
    keywords = call.keywords
    if not keywords:
        return out
    named = [(kw.arg, "" if kw.arg is not None else "**", kw.value) for kw in keywords]
    if out and _position(keywords[0]) < _position(call.args[-1]):
        # ``f(a=1, *rest)``: a keyword written before a positional argument
        spots = [_position(a) for a in call.args] + [_position(kw) for kw in keywords]
        return [item for _spot, item in sorted(zip(spots, out + named), key=lambda pair: pair[0])]
    return out + named


def _position(node: ast.AST) -> tuple[int, int]:
    return (node.lineno, node.col_offset)


def to_ir(node: ast.expr, resolve: NameResolver, depth: int = 0) -> IR:
    """Convert an ast expression. ``resolve`` maps names as written to IR."""
    if depth > 40:
        return UNKNOWN_IR
    d = depth + 1
    node_type = type(node)
    if node_type is ast.Constant:
        return _constant_ir(node.value)
    if node_type is ast.Name:
        return resolve(node.id) or UNKNOWN_IR
    if node_type is ast.Attribute:
        name = dotted_name(node)
        if name is not None:
            return resolve(name) or UNKNOWN_IR
        return ("attr", to_ir(node.value, resolve, d), node.attr)
    if node_type is ast.Call:
        return call_to_ir(node, resolve, d)
    if node_type is ast.JoinedStr:
        parts: list = []
        for part in node.values:
            if type(part) is ast.Constant:
                parts.append(part.value)
            elif type(part) is ast.FormattedValue:
                parts.append(to_ir(part.value, resolve, d))
        return ("fstr", tuple(parts))
    if node_type is ast.UnaryOp:
        operand = to_ir(node.operand, resolve, d)
        if type(node.op) is ast.USub:
            return ("neg", operand)
        if type(node.op) is ast.UAdd:
            return operand
        return UNKNOWN_IR
    if node_type is ast.BinOp:
        op = _BINOPS.get(type(node.op))
        if op is None:
            return UNKNOWN_IR
        return ("bin", op, to_ir(node.left, resolve, d), to_ir(node.right, resolve, d))
    if node_type is ast.Tuple or node_type is ast.List or node_type is ast.Set:
        kind = "tuple" if node_type is ast.Tuple else "list" if node_type is ast.List else "set"
        return ("seq", kind, tuple(UNKNOWN_IR if type(e) is ast.Starred else to_ir(e, resolve, d) for e in node.elts))
    if node_type is ast.Dict:
        return ("dict", tuple((None if k is None else to_ir(k, resolve, d), to_ir(v, resolve, d)) for k, v in zip(node.keys, node.values)))
    return UNKNOWN_IR


def _constant_ir(value) -> IR:
    if value is None or value is True or value is False:
        return ("v", value)
    value_type = type(value)
    if value_type is int:
        return ("v", value) if value.bit_length() <= _MAX_INT_BITS_READ else UNKNOWN_IR
    if value_type is float:
        return ("v", value)
    if value_type is str or value_type is bytes:
        return ("v", value) if len(value) <= MAX_STR_CHARS else UNKNOWN_IR
    return UNKNOWN_IR  # complex numbers, ``...``


def call_to_ir(node: ast.Call, resolve: NameResolver, depth: int = 0) -> IR:
    func = node.func
    if type(func) is ast.Attribute and func.attr == "total_seconds" and not node.args and not node.keywords:
        return ("total_seconds", to_ir(func.value, resolve, depth + 1))
    target = call_target(func, resolve) or written_target(func)
    args: list = []
    kwargs: list = []
    for keyword, star, value in arguments(node):
        if star == "*":
            args.append(("*",))
        elif star == "**":
            kwargs.append(("**", to_ir(value, resolve, depth + 1)))
        elif keyword is not None:
            kwargs.append((keyword, _argument_ir(value, resolve, depth + 1)))
        else:
            args.append(_argument_ir(value, resolve, depth + 1))
    if type(func) is ast.Attribute and dotted_name(func.value) is None:
        return ("call", target, tuple(args), tuple(kwargs), to_ir(func.value, resolve, depth + 1))
    return ("call", target, tuple(args), tuple(kwargs))


def _argument_ir(node: ast.expr, resolve: NameResolver, depth: int) -> IR:
    """A call argument's IR; a method of an object bgcheck cannot name (``target=plugin.update``,
    ``plugin`` a loop variable) is kept as written, marked with "?" as call targets are, so a job
    model can still look for the one project method of that name, and a lambda whose body is a
    call is ("lambda", the call). Neither folds to a value."""
    if type(node) is ast.Lambda and type(node.body) is ast.Call:
        # ``Thread(target=lambda: self.poll(url))``: what runs is the body's call (never folded)
        return ("lambda", call_to_ir(node.body, resolve, depth + 1))
    value = to_ir(node, resolve, depth)
    if value == UNKNOWN_IR and type(node) is ast.Attribute:
        written = written_target(node)
        if written is not None and "." in written:
            return ("ref", written)
    return value


def written_target(func: ast.expr) -> Optional[str]:
    """A call target that does not resolve, kept as written and marked with "?" (``?sender.add_periodic_task``),
    so name-based tables still see it while it never equals a qualified name."""
    written = dotted_name(func)
    if written is None and type(func) is ast.Attribute:
        written = "." + func.attr
    return f"?{written}" if written else None


def call_target(func: ast.expr, resolve: NameResolver) -> Optional[str]:
    """The qualified name a called expression resolves to, or None (``x.lock`` where
    ``x = redis.Redis()`` resolves to ``redis.Redis().lock``: a trailing ``()`` marks "an
    instance returned by calling this")."""
    name = dotted_name(func)
    if name is not None:
        return ir_path(resolve(name))
    if type(func) is ast.Attribute:
        base = call_target_of_value(func.value, resolve)
        return f"{base}.{func.attr}" if base else None
    return None


def call_target_of_value(node: ast.expr, resolve: NameResolver) -> Optional[str]:
    """The path of an expression used as a receiver: ``Foo()`` -> ``pkg.Foo()``."""
    if type(node) is ast.Call:
        inner = call_target(node.func, resolve)
        return f"{inner}()" if inner else None
    name = dotted_name(node)
    if name is not None:
        return ir_path(resolve(name))
    if type(node) is ast.Attribute:
        base = call_target_of_value(node.value, resolve)
        return f"{base}.{node.attr}" if base else None
    return None
