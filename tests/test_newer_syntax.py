"""Syntax newer than the running Python (load/newer_syntax.py): libcst reads the file, its newer
constructs are rewritten into older syntax of the same bytes line for line, and the summary is the
one the file's own Python would give. Every construct of 3.12-3.14 the summary builder meets, on
the Python the tests run on (3.11 in CI), with a finding inside it."""

from __future__ import annotations

import ast
import sys
import textwrap
from pathlib import Path

import pytest

from bgcheck.load import newer_syntax
from bgcheck.load.bg000 import internal_error
from bgcheck.load.source import normalize_newlines
from bgcheck.load.summary import build_summary
from bgcheck.load.unit import analyse_text
from conftest import write_project
from test_cli import bgcheck_cli

ROOT = Path(__file__).resolve().parent.parent

GENERICS = '''\
import asyncio


type Handler[T = int] = dict[str, T]


class Box[T, *Ts, **P]:
    def __init__(self, item: T) -> None:
        self.item = item


def first[T: (int, str) = int](items: list[T]) -> T:
    return items[0]


async def work() -> None:
    await asyncio.sleep(1)


async def start[
    T,  # what the box holds
](box: Box[T]) -> None:
    asyncio.create_task(work())
'''

FSTRINGS = '''\
import asyncio


async def work(name: str) -> None:
    await asyncio.sleep(1)


async def start(row: dict, names: list) -> None:
    label = f"{row["name"]} {f"{row["id"]}"} {"\\n".join(names)}"
    asyncio.create_task(work(f"{label!r:>{len(f"{row["w"]}")}}"))
    template = t"{row["name"]}"
'''

EXCEPTS = '''\
import asyncio


async def work() -> None:
    await asyncio.sleep(1)


async def start() -> None:
    try:
        await work()
    except ValueError, TypeError:
        asyncio.create_task(work())
    try:
        await work()
    except* OSError, KeyError: asyncio.create_task(work())
'''


def test_a_project_of_newer_syntax_is_checked_on_this_python(tmp_path, monkeypatch):
    write_project(tmp_path / "p", {"app/__init__.py": "", "app/generics.py": GENERICS, "app/fstrings.py": FSTRINGS, "app/excepts.py": EXCEPTS})
    monkeypatch.chdir(tmp_path / "p")
    result = bgcheck_cli("check", "--no-cache", ".")
    assert result.stdout == (
        "app/excepts.py:12:9: BG606 The task returned by `create_task()` is thrown away\n"
        "app/excepts.py:15:32: BG606 The task returned by `create_task()` is thrown away\n"
        "app/fstrings.py:10:5: BG606 The task returned by `create_task()` is thrown away\n"
        "app/generics.py:23:5: BG606 The task returned by `create_task()` is thrown away\n"
        "Found 4 problems (4 warnings); 4 files checked.\n"
    )


def _summary(text: str, tree=None):
    text = normalize_newlines(text)
    return build_summary(tree or ast.parse(text), "m.py", "m", False, text)


def _newer(text: str):
    return _summary(text, newer_syntax.parse_newer(normalize_newlines(text)))


# Each newer construct beside older code of the same bytes line for line: the same summary,
# positions included (on 3.12+ the native parse of the newer text is compared too).
SAME_AS = [
    ("def f[T: int = str](x: T = make()):\n    g()\n", "def f              (x: T = make()):\n    g()\n"),
    ("class C[T, *Ts, **P](Base, metaclass=make()):\n    x = g()\n", "class C             (Base, metaclass=make()):\n    x = g()\n"),
    ("def f[\n    T,\n](x=make()):\n    g()\n", "def f\\\n     \\\n (x=make()):\n    g()\n"),
    ("try:\n    a()\nexcept A, B: log()\n", "try:\n    a()\nexcept(A, B):log()\n"),
    ("try:\n    a()\nexcept* A, mod.B :\n    log()\n", "try:\n    a()\nexcept*(A, mod.B):\n    log()\n"),
    ("def h():\n    try:\n        a()\n    except A, B :\n        return\n", "def h():\n    try:\n        a()\n    except(A, B):\n        return\n"),
    ('x = f"{a["b"]} {f"{c()}"}"\n', "x = f\"{a['b']} {f'{c()}'}\"\n"),
    ('x = f"{d(a["b"])!r:>{w()}} {y = }"\n', "x = f\"{d(a['b'])!r:>{w()}} {y = }\"\n"),
    ('x = f"""{\n  run(a["b"])  # a comment\n}"""\n', "x = f\"\"\"{\n  run(a['b'])             \n}\"\"\"\n"),
    ('x = "a" f"{b["c"]}" "d{{"\n', "x = \"a\" f\"{b['c']}\" \"d{{\"\n"),
]


@pytest.mark.parametrize("newer, older", SAME_AS)
def test_each_newer_construct_gives_the_summary_of_its_older_spelling(newer, older):
    assert _newer(newer) == _summary(older)
    if sys.version_info >= (3, 14):
        assert _summary(newer) == _summary(older)


def test_backslashes_and_nested_quotes_in_an_f_string_keep_the_calls_where_they_are():
    text = 'def f(names, row):\n    return f"{"\\n".join(names)} {f"{len(row["k"])}"}"\n'
    func = _newer(text).functions["m.f"]
    line = text.splitlines()[1]
    assert dict(zip(func.calls, func.call_sites)) == {
        "?.join": (2, line.index(".join") + 2),  # a call of a string's method: written as unresolved
        "len": (2, line.index("len") + 1),
    }


def test_a_type_statement_binds_its_name_to_no_value_and_reads_its_value_as_an_annotation():
    summary = _newer("type Rows[T = int] = list[make(T)]\n\ndef f():\n    type Local = g()\n    return Local\n")
    assert summary.constants == {"Rows": ("?",), "f": ("ref", "m.f")}
    assert (summary.module_calls, summary.module_call_sites) == (("?make",), ((1, 27),))
    assert summary.functions["m.f"].locals == {"Local": ("?",)} and summary.functions["m.f"].calls == ("?g",)


def test_a_t_string_is_a_template_of_its_parts():
    text = 'def f(row):\n    return t"{row["name"]!r} {g()}"\n'
    func = _newer(text).functions["m.f"]
    assert (func.calls, func.call_sites) == (("?g",), ((2, text.splitlines()[1].index("g()") + 1),))


def _sources(*roots: str):
    for root in roots:
        for path in sorted((ROOT / root).rglob("*.py")):
            text = normalize_newlines(path.read_text(encoding="utf-8"))
            try:
                tree = ast.parse(text)
            except SyntaxError:
                continue  # the robustness fixtures' broken files
            yield path, text, tree


def test_the_fallback_gives_the_native_summary_of_every_file_this_python_reads(monkeypatch):
    """bgcheck's own source, fixtures/ and the rule fixtures, read through the fallback with every
    string rebuilt by hand (as an f-string this Python cannot parse is): the same summaries."""
    monkeypatch.setattr(newer_syntax, "_reads_natively", lambda source: False)
    read = 0
    for path, text, tree in _sources("bgcheck", "fixtures", "tests/rules"):
        native = build_summary(tree, str(path), "m", False, text)
        assert build_summary(newer_syntax.parse_newer(text), str(path), "m", False, text) == native, path
        read += 1
    assert read > 500


def test_a_file_neither_reads_is_a_short_bg000_with_the_detail_in_its_explanation():
    unit = analyse_text(Path("m.py"), "m.py", "type X = \n")
    assert unit.summary is None
    assert (unit.error.message, unit.error.location.line) == ("file not analysed: syntax error: invalid syntax", 1)
    assert "nor libcst" in unit.error.explanation


def test_bg000_messages_fit_one_line_and_the_detail_is_under_verbose(tmp_path, monkeypatch):
    long_reason = ValueError("x" * 300)
    assert len(internal_error("m.py", "analysing", long_reason).message) <= 120
    write_project(tmp_path / "p", {"app/__init__.py": "", "app/broken.py": "def f(:\n    pass\n"})
    monkeypatch.chdir(tmp_path / "p")
    result = bgcheck_cli("check", "--no-cache", "--verbose", ".")
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    assert result.stdout == (
        "app/broken.py:1:7: BG000 file not analysed: syntax error: invalid syntax\n"
        "Found 1 problem (1 error); 2 files checked.\n"
    )
    assert (
        f"bgcheck: note: app/broken.py:1: BG000: Neither Python {version} (the Python bgcheck runs on) nor libcst (which "
        f"reads the syntax of Python 3.0 to 3.14) parses it. Python {version} says: invalid syntax (line 1, column 7).\n"
    ) in result.stderr


def test_a_type_statement_of_a_parenthesised_value_over_lines_is_read():
    # libcst places the value inside its parentheses: the rewrite keeps them (it found no room).
    summary = _newer('type Kind = (\n    Literal["a"]\n    | make()\n)\n\ndef f():\n    return Kind\n')
    assert summary.constants == {"Kind": ("?",), "f": ("ref", "m.f")}
    assert (summary.module_calls, summary.module_call_sites) == (("?make",), ((3, 7),))


TYPE_ALIAS_IN_A_JOB_MODULE = '''\
import threading

import requests

type Reading = dict[str, float]


def poll(url: str) -> None:
    while True:
        reading: Reading = requests.get(url).json()
        print(reading)


def start(url: str) -> None:
    threading.Thread(target=poll, args=(url,), daemon=True).start()
'''


def test_a_rule_that_reads_call_guards_on_the_ast_reads_a_file_of_newer_syntax(tmp_path, monkeypatch):
    # BG203 asks which guards hold around the call, on the function's ast: read as phase 1 read it
    # (a BG000 "bgcheck failed while checking it" on Python < 3.12 before)
    write_project(tmp_path / "p", {"app/__init__.py": "", "app/poller.py": TYPE_ALIAS_IN_A_JOB_MODULE})
    monkeypatch.chdir(tmp_path / "p")
    result = bgcheck_cli("check", "--no-cache", "--select", "BG000,BG203", ".")
    assert result.stdout == (
        "app/poller.py:10:28: BG203 A `requests` call waits with no timeout in job `poll`\n"
        "Found 1 problem (1 warning); 2 files checked.\n"
    )
