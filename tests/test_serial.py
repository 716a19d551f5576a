"""The cache's plain-data converters (bgcheck/serial.py): exact round trips, and checked reading.

Every summary and every result of the fixture projects, of the rule pages' examples and of
bgcheck's own source goes through JSON and back and must come back equal (and encode to the
same bytes again: digests are made of them). Data of any other shape must be refused with a
DataError, never turned into something else.
"""

from __future__ import annotations

import copy
import json
import math
import re
from pathlib import Path

import pytest

from bgcheck.load import serial
from bgcheck.load.config import load_config
from bgcheck.diagnostics import Applicability, Diagnostic, Edit, Fix, Location, Severity
from bgcheck.load.cache_keys import interface
from bgcheck.load.unit import analyse_text, load_unit
from bgcheck.run.engine import RunRequest, run
from bgcheck.run.items import file_items
from bgcheck.syntax.ir import UNKNOWN_IR
from bgcheck.load.serial import DataError
from bgcheck.load.summary import ClassSummary, FunctionSummary, ModuleSummary

REPO = Path(__file__).resolve().parent.parent
FIXTURES = sorted(p for p in (REPO / "fixtures").iterdir() if (p / "pyproject.toml").is_file())


def through_json(data):
    return json.loads(serial.dumps(data))


def round_trip_summary(summary: ModuleSummary) -> ModuleSummary:
    return serial.summary_from_data(through_json(serial.summary_to_data(summary)))


def round_trip_diagnostics(diagnostics: list) -> list:
    return serial.diagnostics_from_data(through_json(serial.diagnostics_to_data(diagnostics)))


def assert_summary_round_trips(summary: ModuleSummary) -> None:
    back = round_trip_summary(summary)
    assert back == summary
    # dicts keep their order (rules iterate them), tuples stay tuples
    assert list(back.functions) == list(summary.functions) and list(back.constants) == list(summary.constants)
    assert serial.summary_bytes(back) == serial.summary_bytes(summary)
    assert interface(back) == interface(summary)


def test_summary_positions_know_every_position_field():
    """load/summary.py's POSITION_FIELDS (what summary_positions pairs and with_positions replaces,
    so that relocated models move with their lines) names every field that holds a line or a call
    site: a new one must be added there, and to those two functions."""
    from bgcheck.load.summary import POSITION_FIELDS

    for cls in (ModuleSummary, FunctionSummary, ClassSummary):
        named = tuple(name for name in serial.fields_of(cls) if "line" in name or name.endswith("sites"))
        assert sorted(named) == sorted(POSITION_FIELDS[cls.__name__]), cls.__name__


def test_converters_know_every_field():
    """A field added to a summary class must get a converter (it would be lost by the cache)."""
    assert serial.fields_of(ModuleSummary) == serial.MODULE_FIELDS
    assert serial.fields_of(FunctionSummary) == serial.FUNCTION_FIELDS
    assert serial.fields_of(ClassSummary) == serial.CLASS_FIELDS
    assert serial.fields_of(Diagnostic) == ("code", "name", "severity", "message", "location", "related", "fix", "explanation", "silence")
    assert serial.fields_of(Fix) == ("applicability", "message", "edits")
    assert serial.fields_of(Edit) == ("line", "column", "end_line", "end_column", "content")
    assert serial.fields_of(Location) == ("path", "line", "column", "end_line", "end_column", "message")


@pytest.mark.parametrize("project", FIXTURES, ids=lambda p: p.name)
def test_every_fixture_summary_and_result_round_trips(project, monkeypatch):
    monkeypatch.chdir(project)
    config = load_config(start=project)
    units = [load_unit(path, display) for path, display in file_items([Path(".")], config, None)]
    summaries = [u.summary for u in units if u.summary is not None]
    assert len(summaries) >= 3
    for summary in summaries:
        assert_summary_round_trips(summary)
    diagnostics = run(RunRequest([Path(".")], config)).diagnostics
    assert round_trip_diagnostics(diagnostics) == diagnostics
    # and through each kind of cache entry
    to_data, from_data = serial.ENTRY_CODECS["summaries"]
    for unit in units:
        entry = (unit.summary, unit.error, "d" * 64 if unit.summary else "")
        assert from_data(through_json(to_data(entry))) == entry
    bundle = {}
    for d in diagnostics:
        bundle.setdefault(d.path, []).append(d)
    to_data, from_data = serial.ENTRY_CODECS["bundles"]
    assert from_data(through_json(to_data(bundle))) == bundle


def test_demo_results_have_related_locations():
    """The round trip above covers ``related`` only if some finding has one."""
    config = load_config(start=REPO / "fixtures" / "demo_service")
    diagnostics = run(RunRequest([REPO / "fixtures" / "demo_service"], config)).diagnostics
    assert any(d.related for d in diagnostics)
    assert {d.severity for d in diagnostics} >= {Severity.ERROR, Severity.WARNING}


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python[^\n]*\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)


def test_rule_page_examples_and_bgcheck_source_round_trip():
    sources = []
    for page in sorted((REPO / "rules").glob("*.md")):
        sources.extend(_python_blocks(page.read_text(encoding="utf-8")))
    assert len(sources) > 50
    sources.extend(p.read_text(encoding="utf-8") for p in sorted((REPO / "bgcheck").rglob("*.py")))
    kinds = set()
    for n, text in enumerate(sources):
        unit = analyse_text(Path(f"m{n}.py"), f"m{n}.py", text)
        if unit.summary is None:
            continue
        assert_summary_round_trips(unit.summary)
        kinds.update(row[0] for row in serial.summary_to_data(unit.summary)[-1])
    # every kind of expression row was seen at least once
    assert kinds >= {"v", "ref", "?", "bin", "neg", "attr", "seq", "dict", "fstr", "call", "*"}


def _summary_with(*constants) -> ModuleSummary:
    return ModuleSummary(path="m.py", module="m", is_package=False, constants={f"C{i}": ir for i, ir in enumerate(constants)})


@pytest.mark.parametrize(
    "value",
    [0, -1, True, False, None, 1.5, -0.0, math.inf, -math.inf, 2**64, -(2**200), 10**5000, "", "text", "\ud800 lone surrogate",
     "é ∑ 😀", b"", b"\x00\xff bytes", "line\nbreak"],
    ids=lambda value: type(value).__name__,
)
def test_literals_keep_their_type_and_value(value):
    back = round_trip_summary(_summary_with(("v", value), ("v", 1), ("v", 1.0), ("v", True)))
    stored = back.constants["C0"][1]
    assert type(stored) is type(value)
    assert stored == value or (isinstance(value, float) and repr(stored) == repr(value))
    assert [type(back.constants[f"C{i}"][1]) for i in (1, 2, 3)] == [int, float, bool]  # 1, 1.0 and True stay apart


def test_nan_round_trips():
    back = round_trip_summary(_summary_with(("v", math.nan)))
    assert math.isnan(back.constants["C0"][1])


def test_every_expression_shape_round_trips():
    call = ("call", "pkg.f", (("v", 1), ("*",)), (("key", ("ref", "pkg.X")), ("**", ("ref", "pkg.D"))))
    shapes = [
        call,
        ("call", None, (), ()),
        ("call", "?.lock", (), (), ("call", "redis.Redis", (), ())),
        ("bin", "**", ("v", 2), ("neg", ("v", 3))),
        ("total_seconds", ("call", "datetime.timedelta", (), (("hours", ("v", 1)),))),
        ("attr", ("call", "f", (), ()), "name"),
        ("seq", "set", (("v", "a"), UNKNOWN_IR)),
        ("dict", ((("v", "k"), ("v", 1)), (None, ("ref", "m.OTHER")))),
        ("fstr", ("lock-", ("ref", "m.ID"), "-", ("?",))),
    ]
    summary = _summary_with(*shapes)
    summary.functions["m.f"] = FunctionSummary(
        qualname="m.f", name="f", is_async=True, class_qualname=None, decorators=(call,), calls=("a.b", "?x.y"),
        locals={"x": call}, params=("a", "b"), line=3, endless_loop=True, is_generator=True, calls_after_yield=("a.b",),
        returns=("call", "concurrent.futures.ThreadPoolExecutor", (), ()),
    )
    summary.classes["m.K"] = ClassSummary(
        qualname="m.K", name="K", bases=("pkg.Base", None), decorators=(call,), attrs={"a": ("v", 1)},
        self_attrs={"b": UNKNOWN_IR}, methods=("run",), line=9,
    )
    summary.attr_assignments = (("m.app.conf.x", ("v", True), "m", 1),)
    summary.recorded_calls = ((call, "m.f"),)
    summary.queue_puts = (
        ("m.Q", ("ref", "m.STOP"), None, "m.f"),
        ("m.K().q", call, "while", "m.K.run"),
        ("m.K().q", call, "while-sized", "m.K.run"),
        ("m.K().q", call, "async for", "m.K.run"),
        ("m.R", ("v", 1), ("for", ("call", "db.rows", (), ())), "m.f"),
    )
    summary.passed_refs = ("m.POOL", "m.K().pool")
    summary.module_calls = ("m.f",)
    summary.imports = {"os": "os"}
    summary.has_main_block = True
    assert_summary_round_trips(summary)


def test_shared_expressions_are_written_once_and_read_without_recursion():
    """A local inlined into every use makes a DAG: 2**200 leaves as a tree, 201 rows as a table."""
    node = ("v", 1)
    for _ in range(200):
        node = ("bin", "+", node, node)
    data = serial.summary_to_data(_summary_with(node))
    assert len(data[-1]) == 201
    back = serial.summary_from_data(through_json(data))
    tip = back.constants["C0"]
    assert tip[2] is tip[3]  # shared again, not copied
    # a chain deeper than the recursion limit
    deep = ("v", 0)
    for _ in range(5000):
        deep = ("neg", deep)
    back = serial.summary_from_data(through_json(serial.summary_to_data(_summary_with(deep))))
    assert serial.summary_bytes(back) == serial.summary_bytes(_summary_with(deep))


def test_equal_expressions_encode_the_same_whatever_objects_hold_them():
    one = ("call", "f", (("v", "a" * 3),), ())
    other = ("call", "f", (("v", "".join("aaa")),), ())
    assert one is not other
    shared = _summary_with(one, one)
    separate = _summary_with(one, other)
    assert serial.summary_bytes(shared) == serial.summary_bytes(separate)


@pytest.mark.parametrize(
    "node",
    [("nope", 1), ("v",), ("v", [1]), ("v", {1}), ("v", 1j), ("ref", 1), ("bin", "@", ("v", 1), ("v", 2)), ("seq", "frozenset", ()),
     ("call", 1, (), ()), ("neg",), [("v", 1)], "v", ("dict", (("v", 1),))],
    ids=repr,
)
def test_unknown_expressions_are_refused_when_written(node):
    with pytest.raises(DataError):
        serial.summary_bytes(_summary_with(node))


# ---------------------------------------------------------------------------
# reading checks every type


def _valid_summary_data() -> list:
    summary = _summary_with(("call", "f", (("v", 1),), (("k", ("v", "x")),)), ("seq", "list", (("v", 2.5),)))
    summary.functions["m.f"] = FunctionSummary(
        qualname="m.f", name="f", is_async=False, class_qualname="m.K", params=("a",), line=2, calls=("g",), call_sites=((3, 5),),
        param_handoffs=(("a", "asyncio.create_task", ""),), call_handoffs=(("m.start", "coro", "m.g"),),
    )
    summary.module_calls, summary.module_call_sites = ("h",), ((9, 1),)
    summary.classes["m.K"] = ClassSummary(qualname="m.K", name="K", bases=("b.B",), attrs={"x": ("v", 1)}, line=1)
    summary.attr_assignments = (("m.x.y", ("v", 1), "m", 0),)
    summary.recorded_calls = ((("call", "g", (), ()), "m"),)
    summary.queue_puts = (("m.Q", ("v", None), "while", "m.f"),)
    summary.passed_refs = ("m.POOL",)
    summary.alternatives = {"now": (("ref", "time.time"), ("v", None))}
    return through_json(serial.summary_to_data(summary))


def _set(data, path, value):
    target = data
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value


ROWS = len(serial.MODULE_FIELDS)  # the IR rows come after the fields


SUMMARY_DAMAGE = {
    "path not a string": ((0,), 1),
    "is_package a number": ((2,), 1),
    "import target a number": ((3, "os"), 1),
    "constant row a string": ((4, "C0"), "0"),
    "constant row out of range": ((4, "C0"), 999),
    "constant row negative": ((4, "C0"), -1),
    "constant row a boolean": ((4, "C0"), True),
    "function line a string": ((5, 0, 9), "2"),
    "function line a float": ((5, 0, 9), 2.0),
    "function async a number": ((5, 0, 2), 0),
    "function params a string": ((5, 0, 8), "a"),
    "function calls hold a number": ((5, 0, 5), [1]),
    "function record too short": ((5, 0), ["m.f"]),
    "class bases hold a number": ((6, 0, 2), [1]),
    "class attrs a list": ((6, 0, 4), [0]),
    "assignment too long": ((9, 0), ["m.x.y", 0, "m", "extra"]),
    "recorded call scope a number": ((10, 0, 1), 7),
    "queue put loop unknown": ((11, 0, 2), "forever"),
    "queue put loop for without a row": ((11, 0, 2), ["for"]),
    "queue put too short": ((11, 0), ["m.Q", 0, True]),
    "function returns a string": ((5, 0, 15), "?"),
    "param handoff not a triple": ((5, 0, 13), [["coro", "asyncio.create_task"]]),
    "call handoff holds a number": ((5, 0, 14), [["m.start", "", 1]]),
    "passed refs hold a number": ((12,), [1]),
    "has_main_block null": ((13,), None),
    "alternatives a list": ((14,), [["now", [0]]]),
    "alternative row out of range": ((14, "now"), [999]),
    "alternatives not a list of rows": ((14, "now"), 0),
    "rows not a list": ((ROWS,), {"0": ["v", 1]}),
    "row unknown tag": ((ROWS, 0), ["exec", "print(1)"]),
    "row refers forward": ((ROWS, 0), ["neg", 5]),
    "row refers to itself": ((ROWS, 0), ["neg", 0]),
    "literal a list": ((ROWS, 0), ["v", [1]]),
    "literal an object": ((ROWS, 0), ["v", {"__class__": "x"}]),
    "hex integer not hex": ((ROWS, 0), ["i", "zz"]),
    "bad operator": ((ROWS, 0), ["bin", "@", 0, 0]),
    "call sites not one pair per call": ((5, 0, 6), [3]),
    "call site line a string": ((5, 0, 6), ["3", 5]),
    "module call sites not one pair per call": ((8,), [1, 2, 3, 4]),
    "not a summary at all": ((), None),
}


@pytest.mark.parametrize("damage", sorted(SUMMARY_DAMAGE))
def test_summary_of_the_wrong_shape_is_refused(damage):
    data = _valid_summary_data()
    assert serial.summary_from_data(copy.deepcopy(data)) is not None  # the undamaged data is read
    path, value = SUMMARY_DAMAGE[damage]
    if path == ():
        data = value
    else:
        _set(data, path, value)
    with pytest.raises(DataError):
        serial.summary_from_data(data)


def test_summary_missing_or_extra_field_is_refused():
    data = _valid_summary_data()
    with pytest.raises(DataError):
        serial.summary_from_data(data[:-1])
    with pytest.raises(DataError):
        serial.summary_from_data(data + [None])


DIAGNOSTIC = Diagnostic(
    code="BG101", name="n", severity=Severity.WARNING, message="m",
    location=Location("a.py", 1, 2, 3, 4), related=(Location("b.py", 5, 6, 7, 8, "see"),),
    fix=Fix(Applicability.UNSAFE, "Re-raise", (Edit(3, 1, 3, 1, "    raise\n"), Edit(1, 1, 1, 5, ""))),
)


@pytest.mark.parametrize(
    "damage",
    [((0,), 101), ((2,), "fatal"), ((2,), "ERROR"), ((3,), None), ((4, 1), "1"), ((4, 1), 1.0), ((4, 1), False), ((4,), [1, 2]),
     ((5,), {}), ((5, 0, 5), None), ((4, 0), ["a.py"]), ((6, 0), "maybe"), ((6, 2, 0, 4), None), ((6, 2, 1), [1, 1, 1]),
     ((6,), "fix")],
    ids=repr,
)
def test_diagnostic_of_the_wrong_shape_is_refused(damage):
    data = through_json(serial.diagnostic_to_data(DIAGNOSTIC))
    assert serial.diagnostic_from_data(copy.deepcopy(data)) == DIAGNOSTIC
    path, value = damage
    _set(data, path, value)
    with pytest.raises(DataError):
        serial.diagnostic_from_data(data)


def test_entries_of_the_wrong_shape_are_refused():
    summaries = serial.ENTRY_CODECS["summaries"][1]
    with pytest.raises(DataError):
        summaries([None, None, ""])  # neither a summary nor a BG000
    with pytest.raises(DataError):
        summaries([_valid_summary_data(), serial.diagnostic_to_data(DIAGNOSTIC), "d"])  # both
    with pytest.raises(DataError):
        summaries([_valid_summary_data(), None, ""])  # a summary without its digest
    assert summaries([None, serial.diagnostic_to_data(DIAGNOSTIC), ""]) == (None, DIAGNOSTIC, "")
    with pytest.raises(DataError):
        serial.ENTRY_CODECS["digests"][1]([1, None])
    with pytest.raises(DataError):
        serial.ENTRY_CODECS["bundles"][1]([["a.py", []]])
    with pytest.raises(DataError):
        serial.ENTRY_CODECS["results"][1]({"a.py": []})


def test_a_silence_round_trips_as_a_silence():
    """The places where a model fact kept a rule silent are cached with the file's results."""
    from bgcheck.diagnostics import Severity

    silence = Diagnostic("BG604", "publish-inside-transaction", Severity.ERROR, "the transaction writes nothing",
                         Location("a.py", 3, 5, 3, 20), silence=True)
    assert round_trip_diagnostics([silence]) == [silence]
    assert round_trip_diagnostics([silence])[0].silence is True
