"""Plain data for the cache: explicit converters, every type checked on the way back in.

A cache folder can come with a repository (committed by mistake, or on purpose), so what
it holds is read as data that nothing can turn into code: each value the cache stores is
converted here to JSON-ready lists, strings, numbers, booleans and null, and converted back
with every field's type checked. Anything of another shape raises ``DataError`` (for the
cache: a miss).

Expressions (the IR of ``ir.py``) are stored as a table of rows, one per distinct
expression, with children given by row number (always an earlier row). A shared
expression (a local inlined into each of its uses) is one row however often it is used,
reading needs no recursion, and equal expressions get the same row whatever objects hold
them: the encoding, and every digest made from it, depends on values only.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from typing import TYPE_CHECKING, Any, Optional

from bgcheck.diagnostics import Applicability, Diagnostic, Edit, Fix, Location, Severity

if TYPE_CHECKING:  # imported where summaries are decoded: the other entries need no libcst
    from bgcheck.load.summary import ClassSummary, FunctionSummary, ModuleSummary


class DataError(ValueError):
    """A value (to store, or read back) that is not of the expected shape."""


# ---------------------------------------------------------------------------
# expressions (IR)

_BINOPS = frozenset(("+", "-", "*", "/", "//", "%", "**"))
_SEQ_KINDS = frozenset(("tuple", "list", "set"))
_SPLAT = ("*",)  # a ``*args`` item among a call's arguments
# Integers past this size are written in hex: JSON numbers that long are slow (and over
# 4,300 digits refused) both ways.
_BIG_INT = 10**18
_HEX = re.compile(r"-?[0-9a-f]+")
_LATIN_1 = re.compile(r"[\x00-\xff]*")


def _children(node) -> tuple:
    """The sub-expressions of one IR node (and a check of its shape)."""
    if type(node) is not tuple or not node or type(node[0]) is not str:
        raise DataError(f"not an expression: {type(node).__name__}")
    tag, size = node[0], len(node)
    if tag in ("v", "ref", "?", "*"):
        return ()
    if tag == "bin" and size == 4:
        return (node[2], node[3])
    if tag in ("neg", "total_seconds", "lambda") and size == 2:
        return (node[1],)
    if tag == "attr" and size == 3:
        return (node[1],)
    if tag == "seq" and size == 3 and type(node[2]) is tuple:
        return node[2]
    if tag == "dict" and size == 2 and type(node[1]) is tuple:
        out = []
        for pair in node[1]:
            if type(pair) is not tuple or len(pair) != 2:
                raise DataError("dict item is not a pair")
            if pair[0] is not None:
                out.append(pair[0])
            out.append(pair[1])
        return tuple(out)
    if tag == "fstr" and size == 2 and type(node[1]) is tuple:
        return tuple(part for part in node[1] if type(part) is not str)
    if tag == "call" and size in (4, 5) and type(node[2]) is tuple and type(node[3]) is tuple:
        out = list(node[2])
        for pair in node[3]:
            if type(pair) is not tuple or len(pair) != 2:
                raise DataError("keyword argument is not a pair")
            out.append(pair[1])
        if size == 5:
            out.append(node[4])
        return tuple(out)
    raise DataError(f"unknown expression {tag!r} of {size} items")


def _literal_row(value) -> tuple[tuple, tuple]:
    """(row, key) of a literal: the key tells 1, 1.0, True and b"1" apart."""
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return ("v", value), ("v", kind.__name__, value)
    if kind is int:
        if -_BIG_INT < value < _BIG_INT:
            return ("v", value), ("v", "int", value)
        text = format(value, "x")
        return ("i", text), ("i", text)
    if kind is float:
        return ("v", value), ("v", "float", repr(value))  # repr: -0.0 and nan as themselves
    if kind is bytes:
        text = value.decode("latin-1")
        return ("b", text), ("b", text)
    raise DataError(f"not a literal: {kind.__name__}")


def _str(value) -> str:
    if type(value) is not str:
        raise DataError(f"expected a string, got {type(value).__name__}")
    return value


class IRTable:
    """Expressions to rows (see the module's docstring). ``add`` returns an expression's row."""

    def __init__(self) -> None:
        self.rows: list = []
        self._by_id: dict = {}  # id(node) -> row, for nodes already written
        self._by_value: dict = {}  # a row's content -> row
        self._alive: list = []  # the nodes behind _by_id (an id is only unique while its object lives)

    def add(self, root) -> int:
        by_id = self._by_id
        found = by_id.get(id(root))
        if found is not None:
            return found
        stack = [root]
        while stack:  # post-order without recursion: children get their rows first
            node = stack[-1]
            if id(node) in by_id:
                stack.pop()
                continue
            waiting = [child for child in _children(node) if id(child) not in by_id]
            if waiting:
                stack.extend(waiting)
                continue
            stack.pop()
            row, key = self._row(node)
            index = self._by_value.get(key)
            if index is None:
                index = len(self.rows)
                self.rows.append(row)
                self._by_value[key] = index
            by_id[id(node)] = index
            self._alive.append(node)
        return by_id[id(root)]

    def _row(self, node) -> tuple[tuple, tuple]:
        at = self._by_id.__getitem__
        tag = node[0]
        if tag == "v":
            if len(node) != 2:
                raise DataError("a literal has one value")
            return _literal_row(node[1])
        if tag == "ref":
            if len(node) != 2:
                raise DataError("a reference has one name")
            row = ("ref", _str(node[1]))
        elif tag in ("?", "*"):
            if len(node) != 1:
                raise DataError(f"{tag!r} has no items")
            row = (tag,)
        elif tag == "bin":
            if node[1] not in _BINOPS:
                raise DataError(f"unknown operator {node[1]!r}")
            row = ("bin", node[1], at(id(node[2])), at(id(node[3])))
        elif tag in ("neg", "total_seconds", "lambda"):
            row = (tag, at(id(node[1])))
        elif tag == "attr":
            row = ("attr", at(id(node[1])), _str(node[2]))
        elif tag == "seq":
            if node[1] not in _SEQ_KINDS:
                raise DataError(f"unknown sequence {node[1]!r}")
            row = ("seq", node[1], tuple(at(id(item)) for item in node[2]))
        elif tag == "dict":
            flat: list = []
            for key, value in node[1]:
                flat.append(None if key is None else at(id(key)))
                flat.append(at(id(value)))
            row = ("dict", tuple(flat))
        elif tag == "fstr":
            row = ("fstr", tuple(part if type(part) is str else at(id(part)) for part in node[1]))
        else:  # "call"
            target = node[1]
            if target is not None:
                _str(target)
            kwargs: list = []
            for name, value in node[3]:
                kwargs.append(_str(name))
                kwargs.append(at(id(value)))
            row = ("call", target, tuple(at(id(arg)) for arg in node[2]), tuple(kwargs))
            if len(node) == 5:
                row += (at(id(node[4])),)
        return row, row


def _row_index(value, count: int) -> int:
    if type(value) is not int or not 0 <= value < count:
        raise DataError("bad row number")
    return value


def decode_rows(rows) -> list:
    """Rows (see ``IRTable``) back to expressions: the expression of each row, in order."""
    if type(rows) is not list:
        raise DataError("rows are not a list")
    nodes: list = []
    for row in rows:
        if type(row) is not list or not row:
            raise DataError("a row is not a list")
        count = len(nodes)
        tag, size = row[0], len(row)
        if tag == "v" and size == 2:
            value = row[1]
            if not (value is None or type(value) in (str, int, float, bool)):
                raise DataError("not a literal")
            node = ("v", value)
        elif tag == "ref" and size == 2:
            node = ("ref", _str(row[1]))
        elif tag == "?" and size == 1:
            from bgcheck.syntax.ir import UNKNOWN_IR

            node = UNKNOWN_IR
        elif tag == "*" and size == 1:
            node = _SPLAT
        elif tag == "bin" and size == 4:
            if row[1] not in _BINOPS:
                raise DataError("unknown operator")
            node = ("bin", row[1], nodes[_row_index(row[2], count)], nodes[_row_index(row[3], count)])
        elif tag in ("neg", "total_seconds", "lambda") and size == 2:
            node = (tag, nodes[_row_index(row[1], count)])
        elif tag == "attr" and size == 3:
            node = ("attr", nodes[_row_index(row[1], count)], _str(row[2]))
        elif tag == "seq" and size == 3 and type(row[2]) is list:
            if row[1] not in _SEQ_KINDS:
                raise DataError("unknown sequence")
            node = ("seq", row[1], tuple(nodes[_row_index(item, count)] for item in row[2]))
        elif tag == "dict" and size == 2 and type(row[1]) is list and len(row[1]) % 2 == 0:
            flat = row[1]
            node = (
                "dict",
                tuple(
                    (None if flat[i] is None else nodes[_row_index(flat[i], count)], nodes[_row_index(flat[i + 1], count)])
                    for i in range(0, len(flat), 2)
                ),
            )
        elif tag == "fstr" and size == 2 and type(row[1]) is list:
            node = ("fstr", tuple(part if type(part) is str else nodes[_row_index(part, count)] for part in row[1]))
        elif tag == "call" and size in (4, 5) and type(row[2]) is list and type(row[3]) is list and len(row[3]) % 2 == 0:
            target = row[1]
            if target is not None:
                _str(target)
            kwargs = row[3]
            node = (
                "call",
                target,
                tuple(nodes[_row_index(arg, count)] for arg in row[2]),
                tuple((_str(kwargs[i]), nodes[_row_index(kwargs[i + 1], count)]) for i in range(0, len(kwargs), 2)),
            )
            if size == 5:
                node += (nodes[_row_index(row[4], count)],)
        elif tag == "i" and size == 2 and _HEX.fullmatch(_str(row[1])):
            node = ("v", int(row[1], 16))
        elif tag == "b" and size == 2 and _LATIN_1.fullmatch(_str(row[1])):
            node = ("v", row[1].encode("latin-1"))
        else:
            raise DataError(f"unknown row {tag!r}")
        nodes.append(node)
    return nodes


# ---------------------------------------------------------------------------
# checked reading of plain values


def _bool(value) -> bool:
    if type(value) is not bool:
        raise DataError(f"expected a boolean, got {type(value).__name__}")
    return value


def _int(value) -> int:
    if type(value) is not int:
        raise DataError(f"expected an integer, got {type(value).__name__}")
    return value


def _opt_str(value) -> Optional[str]:
    return None if value is None else _str(value)


def _list(value) -> list:
    if type(value) is not list:
        raise DataError(f"expected a list, got {type(value).__name__}")
    return value


def _strs(value) -> tuple:
    items = tuple(_list(value))
    if not all(type(item) is str for item in items):
        raise DataError("expected strings")
    return items


def _str_map(value) -> dict:
    if type(value) is not dict or not all(type(v) is str for v in value.values()):
        raise DataError("expected a map of strings")
    return value  # JSON object keys are always strings


def _record(value, size: int) -> list:
    if type(value) is not list or len(value) != size:
        raise DataError(f"expected a record of {size} fields")
    return value


# ---------------------------------------------------------------------------
# diagnostics


def location_to_data(location: Location) -> list:
    return [location.path, location.line, location.column, location.end_line, location.end_column, location.message]


def location_from_data(data) -> Location:
    path, line, column, end_line, end_column, message = _record(data, 6)
    return Location(_str(path), _int(line), _int(column), _int(end_line), _int(end_column), _str(message))


_SEVERITIES = {severity.value: severity for severity in Severity}


def diagnostic_to_data(diagnostic: Diagnostic) -> list:
    return [
        diagnostic.code,
        diagnostic.name,
        diagnostic.severity.value,
        diagnostic.message,
        location_to_data(diagnostic.location),
        [location_to_data(related) for related in diagnostic.related],
        None if diagnostic.fix is None else fix_to_data(diagnostic.fix),
        diagnostic.explanation,
        diagnostic.silence,
    ]


def diagnostic_from_data(data) -> Diagnostic:
    code, name, severity, message, location, related, fix, explanation, silence = _record(data, 9)
    if type(silence) is not bool:
        raise DataError("a diagnostic's silence flag is not a bool")
    if severity not in _SEVERITIES:
        raise DataError(f"unknown severity {severity!r}")
    return Diagnostic(
        code=_str(code),
        name=_str(name),
        severity=_SEVERITIES[severity],
        message=_str(message),
        location=location_from_data(location),
        related=tuple(location_from_data(item) for item in _list(related)),
        fix=None if fix is None else fix_from_data(fix),
        explanation=_str(explanation),
        silence=silence,
    )


_APPLICABILITIES = {applicability.value: applicability for applicability in Applicability}


def fix_to_data(fix: Fix) -> list:
    edits = [[e.line, e.column, e.end_line, e.end_column, e.content] for e in fix.edits]
    return [fix.applicability.value, fix.message, edits]


def fix_from_data(data) -> Fix:
    applicability, message, edits = _record(data, 3)
    if applicability not in _APPLICABILITIES:
        raise DataError(f"unknown applicability {applicability!r}")
    found = []
    for item in _list(edits):
        line, column, end_line, end_column, content = _record(item, 5)
        found.append(Edit(_int(line), _int(column), _int(end_line), _int(end_column), _str(content)))
    return Fix(_APPLICABILITIES[applicability], _str(message), tuple(found))


def diagnostics_to_data(diagnostics) -> list:
    return [diagnostic_to_data(d) for d in diagnostics]


def diagnostics_from_data(data) -> list:
    return [diagnostic_from_data(item) for item in _list(data)]


# ---------------------------------------------------------------------------
# summaries

# The fields each converter writes, in order: a field added to a summary class without a
# converter here fails tests/test_serial.py (and, unknown, would be lost by the cache).
MODULE_FIELDS = (
    "path", "module", "is_package", "imports", "constants", "functions", "classes",
    "module_calls", "module_call_sites", "attr_assignments", "recorded_calls", "queue_puts", "passed_refs",
    "has_main_block", "alternatives", "handlers",
)
FUNCTION_FIELDS = (
    "qualname", "name", "is_async", "class_qualname", "decorators", "calls", "call_sites", "locals",
    "params", "line", "endless_loop", "is_generator", "calls_after_yield", "param_handoffs", "call_handoffs", "returns",
    "call_contexts", "conditional_calls", "cleanup_calls", "ref_handoffs", "keeps_its_errors", "awaits_through",
    "param_stores", "item_calls", "calls_beside_kept_try", "tail_calls", "param_attrs", "suspends_only_at", "awaited_io",
    "call_guards", "call_arguments", "param_defaults", "positional_params", "guard_params", "tests_own_cancelling",
    "awaits_a_handed_task", "keeps_its_cancellation", "handed_tasks", "abstract",
)
CLASS_FIELDS = ("qualname", "name", "bases", "decorators", "attrs", "self_attrs", "methods", "line", "calls")


def _function_to_data(f: FunctionSummary, add, with_locals: bool = True) -> list:
    return [
        f.qualname, f.name, f.is_async, f.class_qualname, [add(d) for d in f.decorators], list(f.calls),
        _sites_to_data(f.call_sites, f.calls), {name: add(ir) for name, ir in f.locals.items()} if with_locals else {}, list(f.params), f.line, f.endless_loop,
        f.is_generator, list(f.calls_after_yield), _triples_to_data(f.param_handoffs),
        _triples_to_data(f.call_handoffs), add(f.returns), _contexts_to_data(f.call_contexts, add),
        [_int(i) for i in f.conditional_calls], [_int(i) for i in f.cleanup_calls], _triples_to_data(f.ref_handoffs),
        f.keeps_its_errors, list(f.awaits_through), [[param, path] for param, path in f.param_stores], list(f.item_calls),
        list(f.calls_beside_kept_try), [_int(i) for i in f.tail_calls], [[param, path] for param, path in f.param_attrs],
        None if f.suspends_only_at is None else list(f.suspends_only_at),
        None if f.awaited_io is None else [[target, kept] for target, kept in f.awaited_io],
        [[i, [list(guard) for guard in guards]] for i, guards in f.call_guards],
        [[i, [[key, list(value)] for key, value in given]] for i, given in f.call_arguments],
        [list(default) for default in f.param_defaults], f.positional_params, list(f.guard_params), f.tests_own_cancelling,
        f.awaits_a_handed_task, f.keeps_its_cancellation, list(f.handed_tasks), f.abstract,
    ]


def _contexts_to_data(contexts, add) -> list:
    """``FunctionSummary.call_contexts``: ["with", target, [rows], locks], ["lambda", target], ["plain", target]."""
    data = []
    for entry in contexts:
        if entry[0] == "with" and len(entry) == 4:
            data.append(["with", _str(entry[1]), [add(ir) for ir in entry[2]], bool(entry[3])])
        elif entry[0] in ("lambda", "plain") and len(entry) == 2:
            data.append([entry[0], _str(entry[1])])
        else:
            raise DataError(f"unknown call context {entry!r}")
    return data


def _contexts_from_data(data, nodes: list) -> tuple:
    found = []
    for item in _list(data):
        if type(item) is list and len(item) == 4 and item[0] == "with":
            found.append(("with", _str(item[1]), _irs(item[2], nodes), _bool(item[3])))
        elif type(item) is list and len(item) == 2 and item[0] in ("lambda", "plain"):
            found.append((item[0], _str(item[1])))
        else:
            raise DataError("unknown call context")
    return tuple(found)


def _class_to_data(c: ClassSummary, add) -> list:
    return [
        c.qualname, c.name, list(c.bases), [add(d) for d in c.decorators],
        {name: add(ir) for name, ir in c.attrs.items()}, {name: add(ir) for name, ir in c.self_attrs.items()},
        list(c.methods), c.line, list(c.calls),
    ]


def summary_to_data(summary: ModuleSummary, with_locals: bool = True) -> list:
    """A ModuleSummary as plain data (raises DataError on anything it cannot represent).
    ``with_locals``: False leaves out the functions' local bindings (summary_bytes)."""
    table = IRTable()
    add = table.add
    for mapping, kind in ((summary.functions, "function"), (summary.classes, "class")):
        for key, value in mapping.items():
            if key != value.qualname:
                raise DataError(f"{kind} {value.qualname!r} is filed under {key!r}")
    _check_strs(summary.imports.values(), summary.module_calls)
    data = [
        _str(summary.path),
        _str(summary.module),
        summary.is_package,
        dict(summary.imports),
        {name: add(ir) for name, ir in summary.constants.items()},
        [_function_to_data(f, add, with_locals) for f in summary.functions.values()],
        [_class_to_data(c, add) for c in summary.classes.values()],
        list(summary.module_calls),
        _sites_to_data(summary.module_call_sites, summary.module_calls),
        [[path, add(ir), scope, calls_before] for path, ir, scope, calls_before in summary.attr_assignments],
        [[add(ir), scope] for ir, scope in summary.recorded_calls],
        [[path, add(ir), _loop_to_data(loop, add), scope] for path, ir, loop, scope in summary.queue_puts],
        list(summary.passed_refs),
        summary.has_main_block,
        {name: [add(ir) for ir in irs] for name, irs in summary.alternatives.items()},
        [[_str(scope), bool(in_async), _str(kind), [_str(name) for name in caught]] for scope, in_async, kind, caught in summary.handlers],
        table.rows,
    ]
    return data


_LOOP_KINDS = frozenset(("while", "while-sized", "async for", "requeue"))


def _loop_to_data(loop, add):
    """The loop around a queue put: None, "while", "while-sized", "async for", "requeue", or ("for", IR)."""
    if loop is None or (type(loop) is str and loop in _LOOP_KINDS):
        return loop
    if type(loop) is tuple and len(loop) == 2 and loop[0] == "for":
        return ["for", add(loop[1])]
    raise DataError(f"unknown loop {loop!r}")


def _loop_from_data(data, nodes: list):
    if data is None or (type(data) is str and data in _LOOP_KINDS):
        return data
    if type(data) is list and len(data) == 2 and data[0] == "for":
        return ("for", nodes[_row_index(data[1], len(nodes))])
    raise DataError("unknown loop")


def _sites_to_data(sites: tuple, calls: tuple) -> list:
    """Call positions as one flat list of integers (line, column, line, column, ...), one pair per
    call; none at all for a summary made without them."""
    if sites and len(sites) != len(calls):
        raise DataError("a call position per call target expected")
    flat = []
    for site in sites:
        if type(site) is not tuple or len(site) != 2:
            raise DataError("a call position is a (line, column) pair")
        flat.append(_int(site[0]))
        flat.append(_int(site[1]))
    return flat


def _sites_from_data(value, calls: tuple) -> tuple:
    flat = _list(value)
    if (flat and len(flat) != 2 * len(calls)) or not all(type(item) is int for item in flat):
        raise DataError("a call position per call target expected")
    return tuple(zip(flat[0::2], flat[1::2]))


def _triples_to_data(triples: tuple) -> list:
    """Triples of strings (a function's handoffs) as lists."""
    result = []
    for triple in triples:
        if type(triple) is not tuple or len(triple) != 3:
            raise DataError("expected triples of strings")
        result.append([_str(item) for item in triple])
    return result


def _triples_from_data(value) -> tuple:
    return tuple(tuple(_strs(_record(item, 3))) for item in _list(value))


def _check_strs(*groups) -> None:
    for group in groups:
        for item in group:
            _str(item)


def _alternatives_from_data(value, nodes: list) -> dict:
    if type(value) is not dict:
        raise DataError("expected a map of alternatives")
    count = len(nodes)
    return {_str(name): tuple(nodes[_row_index(row, count)] for row in _list(rows)) for name, rows in value.items()}


def _ir_map(value, nodes: list) -> dict:
    if type(value) is not dict:
        raise DataError("expected a map of expressions")
    count = len(nodes)
    return {name: nodes[_row_index(row, count)] for name, row in value.items()}


def _irs(value, nodes: list) -> tuple:
    count = len(nodes)
    return tuple(nodes[_row_index(row, count)] for row in _list(value))


def _function_from_data(data, nodes: list) -> FunctionSummary:
    from bgcheck.load.summary import FunctionSummary

    (qualname, name, is_async, class_qualname, decorators, calls, call_sites, locals_, params, line, endless_loop,
     is_generator, calls_after_yield, param_handoffs, call_handoffs, returns, call_contexts,
     conditional_calls, cleanup_calls, ref_handoffs, keeps_its_errors, awaits_through, param_stores,
     item_calls, calls_beside_kept_try, tail_calls, param_attrs, suspends_only_at, awaited_io,
     call_guards, call_arguments, param_defaults, positional_params, guard_params, tests_own_cancelling,
     awaits_a_handed_task, keeps_its_cancellation, handed_tasks, abstract) = _record(data, len(FUNCTION_FIELDS))
    calls = _strs(calls)
    return FunctionSummary(
        qualname=_str(qualname),
        name=_str(name),
        is_async=_bool(is_async),
        class_qualname=_opt_str(class_qualname),
        decorators=_irs(decorators, nodes),
        calls=calls,
        call_sites=_sites_from_data(call_sites, calls),
        locals=_ir_map(locals_, nodes),
        params=_strs(params),
        line=_int(line),
        endless_loop=_bool(endless_loop),
        is_generator=_bool(is_generator),
        calls_after_yield=_strs(calls_after_yield),
        param_handoffs=_triples_from_data(param_handoffs),
        call_handoffs=_triples_from_data(call_handoffs),
        returns=nodes[_row_index(returns, len(nodes))],
        call_contexts=_contexts_from_data(call_contexts, nodes),
        conditional_calls=tuple(_int(i) for i in _list(conditional_calls)),
        cleanup_calls=tuple(_int(i) for i in _list(cleanup_calls)),
        ref_handoffs=_triples_from_data(ref_handoffs),
        keeps_its_errors=_bool(keeps_its_errors),
        awaits_through=_strs(awaits_through),
        param_stores=tuple((_str(param), _str(path)) for param, path in (_record(item, 2) for item in _list(param_stores))),
        item_calls=_strs(item_calls),
        calls_beside_kept_try=_strs(calls_beside_kept_try),
        tail_calls=tuple(_int(i) for i in _list(tail_calls)),
        param_attrs=tuple((_str(param), _str(path)) for param, path in (_record(item, 2) for item in _list(param_attrs))),
        suspends_only_at=None if suspends_only_at is None else _strs(suspends_only_at),
        awaited_io=None if awaited_io is None else tuple(
            (_str(target), _bool(kept)) for target, kept in (_record(item, 2) for item in _list(awaited_io))
        ),
        call_guards=_call_guards_from_data(call_guards),
        call_arguments=_call_arguments_from_data(call_arguments),
        param_defaults=tuple(
            (_str(param), _bool(truthy), _bool(is_none)) for param, truthy, is_none in (_record(d, 3) for d in _list(param_defaults))
        ),
        positional_params=_int(positional_params),
        guard_params=_strs(guard_params),
        tests_own_cancelling=_bool(tests_own_cancelling),
        awaits_a_handed_task=_bool(awaits_a_handed_task),
        keeps_its_cancellation=_bool(keeps_its_cancellation),
        handed_tasks=_strs(handed_tasks),
        abstract=_bool(abstract),
    )


def _call_guards_from_data(call_guards) -> tuple:
    return tuple(
        (_int(i), tuple((_str(param), _str(kind), _bool(outcome)) for param, kind, outcome in (_record(g, 3) for g in _list(guards))))
        for i, guards in (_record(item, 2) for item in _list(call_guards))
    )


def _call_arguments_from_data(call_arguments) -> tuple:
    return tuple(
        (_int(i), tuple((_key(key), _argument_value(value)) for key, value in (_record(pair, 2) for pair in _list(given))))
        for i, given in (_record(item, 2) for item in _list(call_arguments))
    )


def _key(value) -> "int | str":
    """An argument's key: a keyword's name or a position."""
    return value if isinstance(value, int) and not isinstance(value, bool) else _str(value)


def _argument_value(value) -> tuple:
    """A value as bgcheck.syntax.param_guards writes it: ("c", truthy, is_none), ("p", name) or ("u",)."""
    items = _list(value)
    if items and items[0] == "c" and len(items) == 3:
        return ("c", _bool(items[1]), _bool(items[2]))
    if items and items[0] == "p" and len(items) == 2:
        return ("p", _str(items[1]))
    return ("u",)


def _class_from_data(data, nodes: list) -> ClassSummary:
    from bgcheck.load.summary import ClassSummary

    qualname, name, bases, decorators, attrs, self_attrs, methods, line, calls = _record(data, len(CLASS_FIELDS))
    return ClassSummary(
        qualname=_str(qualname),
        name=_str(name),
        bases=tuple(_opt_str(base) for base in _list(bases)),
        decorators=_irs(decorators, nodes),
        attrs=_ir_map(attrs, nodes),
        self_attrs=_ir_map(self_attrs, nodes),
        methods=_strs(methods),
        line=_int(line),
        calls=_strs(calls),
    )


def summary_from_data(data) -> ModuleSummary:
    """The ModuleSummary ``summary_to_data`` made (raises DataError on any other shape)."""
    from bgcheck.load.summary import ModuleSummary

    (path, module, is_package, imports, constants, functions, classes, module_calls, module_call_sites,
     attr_assignments, recorded_calls, queue_puts, passed_refs, has_main_block, alternatives, handlers, rows) = _record(data, len(MODULE_FIELDS) + 1)
    nodes = decode_rows(rows)
    count = len(nodes)
    function_list = [_function_from_data(item, nodes) for item in _list(functions)]
    class_list = [_class_from_data(item, nodes) for item in _list(classes)]
    assignments = []
    for item in _list(attr_assignments):
        target, row, scope, calls_before = _record(item, 4)
        assignments.append((_str(target), nodes[_row_index(row, count)], _str(scope), _int(calls_before)))
    recorded = []
    for item in _list(recorded_calls):
        row, scope = _record(item, 2)
        recorded.append((nodes[_row_index(row, count)], _str(scope)))
    puts = []
    for item in _list(queue_puts):
        target, row, loop, scope = _record(item, 4)
        puts.append((_str(target), nodes[_row_index(row, count)], _loop_from_data(loop, nodes), _str(scope)))
    return ModuleSummary(
        path=_str(path),
        module=_str(module),
        is_package=_bool(is_package),
        imports=dict(_str_map(imports)),
        constants=_ir_map(constants, nodes),
        alternatives=_alternatives_from_data(alternatives, nodes),
        functions={f.qualname: f for f in function_list},
        classes={c.qualname: c for c in class_list},
        module_calls=_strs(module_calls),
        module_call_sites=_sites_from_data(module_call_sites, _strs(module_calls)),
        attr_assignments=tuple(assignments),
        recorded_calls=tuple(recorded),
        queue_puts=tuple(puts),
        passed_refs=_strs(passed_refs),
        has_main_block=_bool(has_main_block),
        handlers=tuple(_handler_from_data(item) for item in _list(handlers)),
    )


_HANDLER_KINDS = frozenset(("except", "except*", "finally"))


def _handler_from_data(item) -> tuple:
    scope, in_async, kind, caught = _record(item, 4)
    if kind not in _HANDLER_KINDS:
        raise DataError(f"unknown handler kind {kind!r}")
    return (_str(scope), _bool(in_async), _str(kind), _strs(caught))


def dumps(data: Any) -> bytes:
    """Plain data as compact JSON (ASCII: lone surrogates in strings survive as escapes)."""
    return json.dumps(data, ensure_ascii=True, separators=(",", ":"), check_circular=False).encode("ascii")


def summary_bytes(summary: ModuleSummary, with_locals: bool = True) -> bytes:
    """A summary's canonical encoding: equal summaries give equal bytes (a digest is made of these).
    ``with_locals``: False leaves out the functions' local bindings (load/unit.py: summary_digest)."""
    try:
        return dumps(summary_to_data(summary, with_locals))
    except (TypeError, ValueError) as exc:  # DataError is a ValueError
        raise DataError(str(exc)) from None


def fields_of(cls) -> tuple:
    return tuple(f.name for f in dataclasses.fields(cls))


# ---------------------------------------------------------------------------
# cache entries: what each kind holds (see cache.py)


def _optional_diagnostic_to_data(error: Optional[Diagnostic]):
    return None if error is None else diagnostic_to_data(error)


def _optional_diagnostic_from_data(data) -> Optional[Diagnostic]:
    return None if data is None else diagnostic_from_data(data)


def _summary_entry_to_data(value) -> list:
    """(summary or None, its BG000 or None, summary digest)."""
    summary, error, summary_digest = value
    return [None if summary is None else summary_to_data(summary), _optional_diagnostic_to_data(error), _str(summary_digest)]


def _summary_entry_from_data(data) -> tuple:
    summary, error, summary_digest = _record(data, 3)
    if (summary is None) == (error is None):
        raise DataError("an entry holds a summary or a BG000, not both or neither")
    if summary is not None and not summary_digest:
        raise DataError("a summary without its digest")
    return (None if summary is None else summary_from_data(summary), _optional_diagnostic_from_data(error), _str(summary_digest))


def _digest_entry_to_data(value) -> list:
    """(summary digest, BG000 or None): what a run needs of a file whose summary it may not read."""
    summary_digest, error = value
    return [_str(summary_digest), _optional_diagnostic_to_data(error)]


def _digest_entry_from_data(data) -> tuple:
    summary_digest, error = _record(data, 2)
    return (_str(summary_digest), _optional_diagnostic_from_data(error))


def _result_to_data(value: tuple) -> list:
    """A file's result: its diagnostics, and the files they point into with those files' summary
    digests (load/cache_keys.py: ``foreign_files``)."""
    diagnostics, foreign = value
    return [diagnostics_to_data(diagnostics), [[_str(display), _str(digest)] for display, digest in foreign]]


def _result_from_data(data) -> tuple:
    diagnostics, foreign = _record(data, 2)
    return diagnostics_from_data(diagnostics), tuple((_str(d), _str(g)) for d, g in (_record(row, 2) for row in _list(foreign)))


def _bundle_to_data(value: dict) -> dict:
    """display path -> that file's diagnostics."""
    return {_str(display): diagnostics_to_data(diagnostics) for display, diagnostics in value.items()}


def _bundle_from_data(data) -> dict:
    if type(data) is not dict:
        raise DataError("a bundle is a map")
    return {display: diagnostics_from_data(diagnostics) for display, diagnostics in data.items()}


def _states_to_data(value: dict) -> dict:
    """absolute path -> (size, mtime_ns, ctime_ns, inode, display, module, is_package, content key,
    summary digest, BG000 or None): what a run learnt of each file (load/file_states.py)."""
    return {
        _str(path): [_int(size), _int(mtime), _int(ctime), _int(inode), _str(display), _str(module), _bool(is_package),
                     _str(key), _str(summary_digest), _optional_diagnostic_to_data(error)]
        for path, (size, mtime, ctime, inode, display, module, is_package, key, summary_digest, error) in value.items()
    }


def _states_from_data(data) -> dict:
    if type(data) is not dict:
        raise DataError("file states are a map")
    states = {}
    for path, row in data.items():  # a row per file of the project: the checks are written out
        size, mtime, ctime, inode, display, module, is_package, key, summary_digest, error = _record(row, 10)
        if not (type(size) is type(mtime) is type(ctime) is type(inode) is int and type(is_package) is bool
                and type(display) is type(module) is type(key) is type(summary_digest) is str):
            raise DataError("not a file state")
        states[path] = (size, mtime, ctime, inode, display, module, is_package, key, summary_digest, None if error is None else diagnostic_from_data(error))
    return states


def _folders_to_data(value: dict) -> dict:
    """folder (relative to its walk's start) -> (size, mtime_ns, ctime_ns, inode, ignores key,
    has a .gitignore, kept folder names, kept file names): what a walk kept of each folder
    (load/file_states.py FolderStates). The ignores keys, long and repeated, are in a table; the
    names of a folder are one string, joined by "/" (no name holds one)."""
    keys: dict[str, int] = {}
    folders = {}
    for rel, (size, mtime, ctime, inode, key, has_gitignore, dirs, files) in value.items():
        index = keys.setdefault(_str(key), len(keys))
        folders[_str(rel)] = [_int(size), _int(mtime), _int(ctime), _int(inode), index, _bool(has_gitignore), _names_to_data(dirs), _names_to_data(files)]
    return {"keys": list(keys), "folders": folders}


def _folders_from_data(data) -> dict:
    if type(data) is not dict or set(data) != {"keys", "folders"} or type(data["folders"]) is not dict:
        raise DataError("folder states are a map of keys and folders")
    keys = _strs(data["keys"])
    value = {}
    for rel, row in data["folders"].items():  # thousands of rows: the checks are written out
        size, mtime, ctime, inode, index, has_gitignore, dirs, files = _record(row, 8)
        if not (type(size) is type(mtime) is type(ctime) is type(inode) is type(index) is int and type(has_gitignore) is bool):
            raise DataError("not a folder state")
        if not 0 <= index < len(keys) or (rel and not rel.endswith("/")):
            raise DataError("not a folder state")
        files = _names_from_data(files)
        if not all(name.endswith(".py") for name in files):
            raise DataError("a folder state keeps only Python files")
        value[rel] = (size, mtime, ctime, inode, keys[index], has_gitignore, _names_from_data(dirs), files)
    return value


def _names_to_data(names) -> str:
    return "/".join(_entry_name(name) for name in names)


def _names_from_data(data) -> tuple:
    """The names of a folder listing: each one path part, never "." or ".." (a cache is not trusted)."""
    if type(data) is not str:
        raise DataError("expected a string of names")
    if not data:
        return ()
    names = tuple(data.split("/"))
    if not _NOT_NAMES.isdisjoint(names) or "\0" in data or (os.sep != "/" and os.sep in data):
        raise DataError("not a folder entry's name")
    return names


def _entry_name(name) -> str:
    if type(name) is not str or name in _NOT_NAMES or "/" in name or "\0" in name or (os.sep != "/" and os.sep in name):
        raise DataError("not a folder entry's name")
    return name


_NOT_NAMES = frozenset(("", ".", ".."))  # what no folder listing holds


_HEX_DIGITS = frozenset("0123456789abcdef")


def _interfaces_to_data(value: dict) -> dict:
    """summary digest -> the hash of that summary's interface (cache_keys.interface), 32 hex digits."""
    return {_str(key): _hex32(hash_) for key, hash_ in value.items()}


def _interfaces_from_data(data) -> dict:
    if type(data) is not dict:
        raise DataError("interface hashes are a map")
    return {key: _hex32(hash_) for key, hash_ in data.items()}


def _hex32(value) -> str:
    if type(value) is not str or len(value) != 32 or not _HEX_DIGITS.issuperset(value):
        raise DataError("expected 32 hex digits")
    return value


def _warnings_to_data(value: list) -> list:
    """The run's warnings about its runtimes (strings), in order."""
    return [_str(item) for item in value]


def _warnings_from_data(data) -> list:
    if type(data) is not list:
        raise DataError("warnings are a list")
    return [_str(item) for item in data]


def _recent_to_data(value: dict) -> dict:
    """display path -> (its result key, its result): the last bundle's results with their keys."""
    return {_str(display): [_str(key), _result_to_data(result)] for display, (key, result) in value.items()}


def _recent_from_data(data) -> dict:
    if type(data) is not dict:
        raise DataError("recent results are a map")
    recent = {}
    for display, row in data.items():
        key, result = _record(row, 2)
        recent[display] = (_str(key), _result_from_data(result))
    return recent


def _models_to_data(value: dict) -> dict:
    """The project models, already plain data (model/persist.py encodes and checks them)."""
    if type(value) is not dict:
        raise DataError("models are a map")
    return value


def _models_from_data(data) -> dict:
    if type(data) is not dict:
        raise DataError("models are a map")
    return data


# kind -> (to plain data, from plain data)
ENTRY_CODECS = {
    "summaries": (_summary_entry_to_data, _summary_entry_from_data),
    "digests": (_digest_entry_to_data, _digest_entry_from_data),
    "results": (_result_to_data, _result_from_data),
    "bundles": (_bundle_to_data, _bundle_from_data),
    "states": (_states_to_data, _states_from_data),
    "folders": (_folders_to_data, _folders_from_data),
    "interfaces": (_interfaces_to_data, _interfaces_from_data),
    "warnings": (_warnings_to_data, _warnings_from_data),
    "models": (_models_to_data, _models_from_data),
    "recent": (_recent_to_data, _recent_from_data),
}
