"""A fast, iterative walk over a libcst tree, for visitors that only read.

``node.visit(visitor)`` in libcst rebuilds every node it passes (it is made
for transformers), which costs several times the parse itself, and it
recurses, which overflows on deeply nested files. bgcheck's visitors never
change the tree, so ``walk`` drives the same ``on_visit``/``on_leave``
protocol over an explicit stack, reading child fields directly and skipping
white space and punctuation, which no rule looks at.

Children come in source order: the dataclass field order, corrected for the
few node types whose fields are declared out of order.
"""

from __future__ import annotations

import dataclasses
import operator
from bgcheck.syntax.lazy import cst

# Fields that only ever hold white space, punctuation or plain values.
_SKIPPED_FIELDS = frozenset(
    {
        "lpar",
        "rpar",
        "leading_lines",
        "lines_after_decorators",
        "trailing_whitespace",
        "header",
        "footer",
        "comma",
        "equal",
        "dot",
        "colon",
        "semicolon",
        "lbracket",
        "rbracket",
        "lbrace",
        "rbrace",
        "indent",
        "encoding",
        "default_indent",
        "default_newline",
        "has_trailing_newline",
        "asynchronous",
        "relative",
        "operator",
        "posonly_ind",
        "star",
        "quote",
        "prefix",
        "start",
        "end",
    }
)
# Node types (by name: this module imports without libcst, syntax/lazy.py) whose fields are not
# declared in source order.
_ORDER = {
    "FunctionDef": ("decorators", "name", "type_parameters", "params", "returns", "body"),
    "ClassDef": ("decorators", "name", "type_parameters", "bases", "keywords", "body"),
    "ExceptHandler": ("type", "name", "body"),
    "ExceptStarHandler": ("type", "name", "body"),
    "Parameters": ("posonly_params", "params", "star_arg", "kwonly_params", "star_kwarg"),
    "MatchCase": ("pattern", "guard", "body"),
    "IfExp": ("body", "test", "orelse"),
}
_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(node_type: type) -> tuple[str, ...]:
    fields = _FIELDS.get(node_type)
    if fields is None:
        declared = [f.name for f in dataclasses.fields(node_type)]
        order = _ORDER.get(node_type.__name__) if node_type.__module__.startswith("libcst") else None
        if order is not None:
            declared = [name for name in order if name in declared] + [name for name in declared if name not in order]
        fields = tuple(name for name in declared if name not in _SKIPPED_FIELDS and not name.startswith("whitespace"))
        _FIELDS[node_type] = fields
    return fields


_IS_NODE: dict[type, bool] = {}


def _is_node(value_type: type) -> bool:
    known = _IS_NODE.get(value_type)
    if known is None:
        known = _IS_NODE[value_type] = issubclass(value_type, cst.CSTNode)
    return known


# node type -> (a getter of its child fields' values, how many fields): one C call per node
_GETTERS: dict[type, tuple] = {}
_NODE, _SEQUENCE, _OTHER = 1, 2, 0
# value type -> _NODE, _SEQUENCE (libcst's sequence fields hold only nodes) or _OTHER (None,
# strings, MaybeSentinel)
_KINDS: dict[type, int] = {tuple: _SEQUENCE, list: _SEQUENCE, type(None): _OTHER, str: _OTHER}


_PLAIN_VALUES = (str, bool, int)  # fields declared as one of these never hold a node


def _getter(node_type: type) -> tuple:
    plain = {f.name for f in dataclasses.fields(node_type) if f.type in _PLAIN_VALUES or f.type in ("str", "bool", "int")}
    fields = tuple(name for name in _child_fields(node_type) if name not in plain)
    entry = _GETTERS[node_type] = (operator.attrgetter(*fields) if fields else None, len(fields))
    return entry


def _kind(value_type: type) -> int:
    kind = _KINDS[value_type] = _NODE if _is_node(value_type) else _OTHER
    return kind


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    getter, count = _GETTERS.get(type(node)) or _getter(type(node))
    if count == 0:
        return []
    values = getter(node)
    kinds = _KINDS
    if count == 1:
        kind = kinds.get(type(values))
        if kind is None:
            kind = _kind(type(values))
        return [values] if kind == _NODE else list(values) if kind == _SEQUENCE else []
    found: list[cst.CSTNode] = []
    for value in values:
        kind = kinds.get(type(value))
        if kind is None:
            kind = _kind(type(value))
        if kind == _NODE:
            found.append(value)
        elif kind == _SEQUENCE:
            found.extend(value)
    return found


# visitor class -> node type -> (visit method or None, leave method or None). A class defined
# inside a function (a new class each call) gets a table for its walk only: kept here, its
# tables would pile up for as long as the process lives (the language server's).
_DISPATCH: dict[type, dict[type, tuple]] = {}


def _table(visitor_type: type, tables: dict[type, dict[type, tuple]] = _DISPATCH) -> dict[type, tuple]:
    """The visitor class's table in ``tables`` (_DISPATCH or _WALK_DISPATCH), made on first use."""
    table = tables.get(visitor_type)
    if table is None:
        table = {}
        if "<locals>" not in visitor_type.__qualname__:
            tables[visitor_type] = table
    return table


def _methods(table: dict[type, tuple], visitor_type: type, node_type: type) -> tuple:
    name = node_type.__name__
    methods = table[node_type] = (getattr(visitor_type, f"visit_{name}", None), getattr(visitor_type, f"leave_{name}", None))
    return methods


def walk(root: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """Visit ``root`` and everything below it: ``visitor.on_visit(node)`` on the way down (return
    False to skip the children), ``visitor.on_leave(node)`` on the way up, as libcst does.

    A visitor that keeps libcst's own ``on_visit``/``on_leave`` (it only defines
    ``visit_<Type>``/``leave_<Type>`` methods) is dispatched directly, with no
    per-node lookups by name."""
    visitor_type = type(visitor)
    # (a plain class with visit_/leave_ methods is such a visitor: a module that defines one needs no libcst to import)
    own_visit, own_leave = getattr(visitor_type, "on_visit", None), getattr(visitor_type, "on_leave", None)
    if own_visit in (None, cst.CSTVisitor.on_visit) and own_leave in (None, cst.CSTVisitor.on_leave):
        _walk_methods(root, visitor, visitor_type)
        return
    on_visit = visitor.on_visit
    on_leave = visitor.on_leave
    stack: list = [root]
    while stack:
        node = stack.pop()
        if type(node) is tuple:  # (node,): on the way up
            on_leave(node[0])
            continue
        stack.append((node,))
        if on_visit(node):
            kids = children(node)
            kids.reverse()
            stack.extend(kids)


def _walk_methods(root: cst.CSTNode, visitor: cst.CSTVisitor, visitor_type: type) -> None:
    # Speed: this loop runs once per node of every file (a million and a half for Django and
    # SQLAlchemy), so ``children`` is inlined here, with the getter of each type's child fields
    # kept next to its methods: a leaf (a Name, an operator) costs one lookup.
    table = _table(visitor_type, _WALK_DISPATCH)
    kinds = _KINDS
    stack: list = [root]
    pop, push = stack.pop, stack.append
    while stack:
        item = pop()
        if type(item) is tuple:  # (leave method, node): on the way up
            item[0](visitor, item[1])
            continue
        entry = table.get(type(item))
        if entry is None:
            entry = _walk_entry(table, visitor_type, type(item))
        visit, leave, getter, count = entry
        if leave is not None:
            push((leave, item))
        if (visit is not None and visit(visitor, item) is False) or count == 0:
            continue
        values = getter(item)
        if count == 1:
            kind = kinds.get(type(values), -1)
            if kind == -1:
                kind = _kind(type(values))
            if kind == _NODE:
                push(values)
            elif kind == _SEQUENCE:
                stack.extend(reversed(values))
            continue
        for value in reversed(values):
            kind = kinds.get(type(value), -1)
            if kind == -1:
                kind = _kind(type(value))
            if kind == _NODE:
                push(value)
            elif kind == _SEQUENCE:
                stack.extend(reversed(value))


# visitor class -> node type -> (visit method or None, leave method or None, the getter of its
# child fields' values, how many): as _DISPATCH, for _walk_methods
_WALK_DISPATCH: dict[type, dict[type, tuple]] = {}


def _walk_entry(table: dict[type, tuple], visitor_type: type, node_type: type) -> tuple:
    getter, count = _GETTERS.get(node_type) or _getter(node_type)
    entry = table[node_type] = (*_methods({}, visitor_type, node_type), getter, count)
    return entry


def find_all(root: cst.CSTNode, types: tuple, skip: frozenset = frozenset()) -> list[cst.CSTNode]:
    """The nodes of ``types`` under ``root``, in source order, leaving out the bodies of nested
    functions and lambdas (they run later, elsewhere): the question rules ask of a ``try`` body,
    a handler or a condition. ``skip``: ids of nodes left out with everything below them."""
    found: list[cst.CSTNode] = []
    stack: list[cst.CSTNode] = [root]
    while stack:
        node = stack.pop()
        if node is not root and isinstance(node, (cst.FunctionDef, cst.Lambda)) or id(node) in skip:
            continue
        if isinstance(node, types):
            found.append(node)
        kids = children(node)
        kids.reverse()
        stack.extend(kids)
    return found
