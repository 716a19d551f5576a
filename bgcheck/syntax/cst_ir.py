"""libcst expressions -> IR (bgcheck/syntax/ir.py says what IR is): what the rules fold, in phase 2.

Phase 1 builds summaries from CPython's ast instead (bgcheck/syntax/ast_ir.py, the same
functions for ast nodes): the two must give the same IR for the same code.
"""

from __future__ import annotations

from bgcheck.syntax.lazy import cst

from bgcheck.syntax.ir import IR, UNKNOWN_IR, MAX_STR_CHARS, NameResolver, ir_path

# libcst's classes are named here, not referenced: this module imports without libcst (syntax/lazy.py)
_BINOPS = {"Add": "+", "Subtract": "-", "Multiply": "*", "Divide": "/", "FloorDivide": "//", "Modulo": "%", "Power": "**"}


# Speed: every libcst node class is an ABC, and ``isinstance`` with an ABC that the node is not
# an instance of goes through ABCMeta.__instancecheck__ (about ten times a plain check). The hot
# functions below look a node's type up instead: node type -> the index of the first of their
# classes it is a subclass of (what their chain of isinstance tests would pick), -1 for none.
_NAME_CHAIN = ("Attribute", "Name", "Call")
_NAME_KIND: dict[type, int] = {}
ATTRIBUTE, NAME, CALL = 0, 1, 2  # what node_kind says


def kind_of(table: dict[type, int], classes: tuple, node_type: type) -> int:
    """The index in ``classes`` (each the name of a libcst class or a tuple of names) of the first
    that ``node_type`` is a subclass of, or -1; remembered in ``table``."""
    kind = table[node_type] = next((i for i, each in enumerate(classes) if issubclass(node_type, _classes(each))), -1)
    return kind


def _classes(names) -> tuple:
    return tuple(getattr(cst, name) for name in ((names,) if isinstance(names, str) else names))


def node_kind(node: cst.CSTNode) -> int:
    """ATTRIBUTE, NAME or CALL for a node of one of those kinds, else -1 (isinstance, faster)."""
    kind = _NAME_KIND.get(type(node))
    return kind if kind is not None else kind_of(_NAME_KIND, _NAME_CHAIN, type(node))


def dotted_name(node: cst.CSTNode) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    parts: list[str] = []
    while True:
        node_type = type(node)
        kind = _NAME_KIND.get(node_type)
        if kind is None:
            kind = kind_of(_NAME_KIND, _NAME_CHAIN, node_type)
        if kind == ATTRIBUTE:
            parts.append(node.attr.value)
            node = node.value
            continue
        if kind == NAME:
            parts.append(node.value)
            return ".".join(reversed(parts))
        return None


def is_none(node: cst.CSTNode) -> bool:
    """Is this expression the literal ``None``?"""
    return isinstance(node, cst.Name) and node.value == "None"


def is_string_statement(small: cst.BaseSmallStatement) -> bool:
    """A string on its own as a statement (``"why"`` on a handler's line): it does nothing."""
    return isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))


def _literal_string(node: cst.BaseString) -> IR:
    """The value of a string literal (implicit concatenations folded, iteratively: they can be
    thousands of parts long), or UNKNOWN_IR past MAX_STR_CHARS."""
    parts: list = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.ConcatenatedString):
            stack.append(current.right)
            stack.append(current.left)
        elif isinstance(current, cst.SimpleString):
            try:
                parts.append(current.evaluated_value)
            except Exception:  # pragma: no cover - malformed escape
                return UNKNOWN_IR
        else:
            return UNKNOWN_IR  # an f-string among the parts
        if len(parts) > 1 and type(parts[-1]) is not type(parts[0]):
            return UNKNOWN_IR
    if not parts or sum(len(part) for part in parts) > MAX_STR_CHARS:
        return UNKNOWN_IR
    return ("v", parts[0][:0].join(parts))


_MAX_LITERAL_CHARS = 300


_IR_CHAIN = (
    "Integer",
    "Float",
    ("SimpleString", "ConcatenatedString"),
    "FormattedString",
    "Name",
    "Attribute",
    "UnaryOperation",
    "BinaryOperation",
    ("Tuple", "List", "Set"),
    "Dict",
    "Call",
)
_IR_KIND: dict[type, int] = {}  # see _NAME_KIND


def to_ir(node: cst.BaseExpression, resolve: NameResolver, depth: int = 0) -> IR:
    """Convert a CST expression. ``resolve`` maps names as written to IR."""
    if depth > 40:
        return UNKNOWN_IR
    d = depth + 1
    kind = _IR_KIND.get(type(node))
    if kind is None:
        kind = kind_of(_IR_KIND, _IR_CHAIN, type(node))
    if kind < 4:
        return _literal_ir(node, kind, resolve, d)
    if kind == 4:  # a Name
        if node.value in ("True", "False", "None"):
            return ("v", {"True": True, "False": False, "None": None}[node.value])
        return resolve(node.value) or UNKNOWN_IR
    if kind == 5:  # an Attribute
        name = dotted_name(node)
        if name is not None:
            return resolve(name) or UNKNOWN_IR
        return ("attr", to_ir(node.value, resolve, d), node.attr.value)
    if kind == 10:
        return call_to_ir(node, resolve, d)
    return _compound_ir(node, kind, resolve, d)


def _literal_ir(node: cst.BaseExpression, kind: int, resolve: NameResolver, d: int) -> IR:
    """``to_ir`` of a number or a string (``kind``: its index in _IR_CHAIN); -1: not one."""
    if kind == 0:  # an Integer
        # Past _MAX_LITERAL_CHARS the value would be UNKNOWN anyway (MAX_INT_BITS), and int()
        # refuses decimal literals of more than 4,300 digits.
        if len(node.value) > _MAX_LITERAL_CHARS or _is_legacy_octal(node.value):
            return UNKNOWN_IR
        return ("v", int(node.value.replace("_", ""), 0))
    if kind == 1:  # a Float
        if len(node.value) > _MAX_LITERAL_CHARS:
            return UNKNOWN_IR
        return ("v", float(node.value.replace("_", "")))
    if kind == 2:
        return _literal_string(node)
    if kind == 3:  # an f-string
        parts: list = []
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                parts.append(part.value)
            elif isinstance(part, cst.FormattedStringExpression):
                parts.append(to_ir(part.expression, resolve, d))
        return ("fstr", tuple(parts))
    return UNKNOWN_IR


def _compound_ir(node: cst.BaseExpression, kind: int, resolve: NameResolver, d: int) -> IR:
    """``to_ir`` of an operation, a container or anything else (``kind``: its index in _IR_CHAIN)."""
    if kind == 6:  # a UnaryOperation
        operand = to_ir(node.expression, resolve, d)
        if isinstance(node.operator, cst.Minus):
            return ("neg", operand)
        if isinstance(node.operator, cst.Plus):
            return operand
        return UNKNOWN_IR
    if kind == 7:  # a BinaryOperation
        op = _BINOPS.get(type(node.operator).__name__)
        if op is None:
            return UNKNOWN_IR
        return ("bin", op, to_ir(node.left, resolve, d), to_ir(node.right, resolve, d))
    if kind == 8:
        kind_name = {cst.Tuple: "tuple", cst.List: "list", cst.Set: "set"}[type(node)]
        items = []
        for el in node.elements:
            if isinstance(el, cst.StarredElement):
                items.append(UNKNOWN_IR)
            else:
                items.append(to_ir(el.value, resolve, d))
        return ("seq", kind_name, tuple(items))
    if kind == 9:  # a Dict
        pairs = []
        for el in node.elements:
            if isinstance(el, cst.DictElement):
                pairs.append((to_ir(el.key, resolve, d), to_ir(el.value, resolve, d)))
            else:
                pairs.append((None, to_ir(el.value, resolve, d)))
        return ("dict", tuple(pairs))
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
