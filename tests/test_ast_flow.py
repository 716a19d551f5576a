"""syntax/ast_flow.py answers for CPython ``ast`` trees exactly as syntax/flow.py, loops.py and
rows.py answer for libcst trees: phase 1's summaries and phase 2's rules must agree.

The equivalence test parses real code both ways, pairs statements and calls by position and
compares every answer; the small cases after it show what each function is for.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from bgcheck.syntax import ast_flow, flow, loops, rows
from bgcheck.syntax.parse import parse_module
from bgcheck.syntax.walk import walk

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "benchmarks" / "corpus"
# Every 20th corpus file (sorted) keeps the test under twenty seconds (libcst's positions cost
# more than its parse); BGCHECK_FULL_CORPUS=1 compares every file (about three minutes).
CORPUS_STEP = 1 if os.environ.get("BGCHECK_FULL_CORPUS") else 20

_KIND = {
    ast.While: "while", ast.For: "for", ast.AsyncFor: "for", ast.If: "if", ast.Try: "try",
    ast.With: "with", ast.AsyncWith: "with", ast.Match: "match",
}
_CST_KIND = {cst.While: "while", cst.For: "for", cst.If: "if", cst.Try: "try", cst.With: "with", cst.Match: "match"}
if hasattr(ast, "TryStar"):
    _KIND[ast.TryStar] = "trystar"
    _CST_KIND[cst.TryStar] = "trystar"


def _files() -> list[Path]:
    files: list[Path] = []
    for folder in ("fixtures", "tests/rules", "bgcheck"):
        files += sorted((ROOT / folder).rglob("*.py"))
    if CORPUS.is_dir():
        files += sorted(CORPUS.rglob("*.py"))[::CORPUS_STEP]
    return files


class _Columns:
    """ast columns count UTF-8 bytes, libcst's count characters."""

    def __init__(self, text: str) -> None:
        self.lines = re.split(r"\r\n|\r|\n", text)

    def char(self, line: int, col: int) -> int:
        text = self.lines[line - 1] if line - 1 < len(self.lines) else ""
        return col if text.isascii() else len(text.encode("utf-8")[:col].decode("utf-8", "replace"))


def _words(names_methods) -> tuple:
    names, methods = names_methods
    return frozenset(names), frozenset(methods)


def _cst_words(node) -> tuple:
    words = loops._words(node)
    return frozenset(words.names), frozenset(words.methods)


_ZERO_SPELLINGS = ("0", "0x0", "0o0", "0b0")  # what flow.is_constant_true reads as zero


class _Unmatchable(cst.CSTVisitor):
    """Finds the shapes ast cannot answer for as libcst does, because ast keeps only values:

    - a ``while``/``if`` test spelled as a zero flow.py does not know (``00``, ``0x00``, ``0_0``):
      libcst calls it true, ast_flow false (it is zero);
    - a ``while``/``if`` test or ``for`` iterable that is an implicit concatenation (``"a" "b"``):
      libcst's ConcatenatedString is not a constant, ast's is one non-empty string;
    - a string literal whose FOR UPDATE is split over concatenated parts (``"FOR " "UPDATE"``) or
      written with an escape in an f-string (``f"FOR\\tUPDATE"``): rows.py reads each part's
      source text, ast_flow the evaluated whole.

    ast_flow gives the meaning (zero is false; the SQL does say FOR UPDATE). None of these
    occurs in the corpus; a file holding one is left out of the comparison."""

    def __init__(self) -> None:
        self.found = False

    def _odd_test(self, test) -> None:
        if isinstance(test, cst.ConcatenatedString):
            self.found = True
        elif isinstance(test, cst.Integer) and test.value not in _ZERO_SPELLINGS:
            self.found = self.found or int(test.value.replace("_", ""), 0) == 0

    def visit_While(self, node: cst.While) -> None:
        self._odd_test(node.test)

    def visit_If(self, node: cst.If) -> None:
        self._odd_test(node.test)

    def visit_For(self, node: cst.For) -> None:
        self.found = self.found or isinstance(node.iter, cst.ConcatenatedString)

    def _string(self, node) -> bool:
        code = cst.Module([]).code_for_node(node)
        if "update" in code.lower():
            self.found = self.found or rows.locks_rows(node) != ast_flow.locks_rows(ast.parse(f"(\n{code}\n)").body)
        return False  # its parts are read with it

    visit_ConcatenatedString = visit_FormattedString = _string


def _positions(module: cst.Module):
    """``MetadataWrapper(module).resolve(PositionProvider)`` without resolve's batched visit for
    no batchable providers (a full libcst visit that rebuilds the tree): the provider alone."""
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    try:
        return PositionProvider()._gen(wrapper)
    except AttributeError:  # another libcst: the public way
        return wrapper.resolve(PositionProvider)


def _compare(path: Path, text: str, stats: dict) -> list[str]:
    try:
        module = parse_module(text)
        tree = ast.parse(text)
    except Exception:  # either parser refuses the file: nothing to compare
        return []
    unmatchable = _Unmatchable()
    walk(module, unmatchable)
    if unmatchable.found:
        stats["left_out"] += 1
        return []
    stats["files"] += 1
    positions = _positions(module)
    columns = _Columns(text)
    cst_statements: dict[tuple, cst.CSTNode] = {}
    cst_spans: dict[int, tuple] = {}  # id of a libcst Call or jump -> its span
    for node, where in positions.items():
        kind = _CST_KIND.get(type(node))
        if kind is not None:
            cst_statements[(kind, where.start.line, where.start.column)] = node
        elif isinstance(node, (cst.Call, cst.Return, cst.Break, cst.Continue)):
            cst_spans[id(node)] = (where.start.line, where.start.column, where.end.line, where.end.column)
    ast_spans: dict[int, tuple] = {}
    ast_statements: dict[tuple, ast.AST] = {}
    for node in ast.walk(tree):
        kind = _KIND.get(type(node))
        if kind is not None:
            ast_statements[(kind, node.lineno, columns.char(node.lineno, node.col_offset))] = node
        elif isinstance(node, (ast.Call, ast.Return, ast.Break, ast.Continue)):
            ast_spans[id(node)] = (
                node.lineno,
                columns.char(node.lineno, node.col_offset),
                node.end_lineno,
                columns.char(node.end_lineno, node.end_col_offset),
            )

    mismatches: list[str] = []
    where_file = path.relative_to(ROOT)

    def check(key, question: str, ours, theirs) -> None:
        stats["answers"] += 1
        if ours != theirs:
            mismatches.append(f"{where_file}:{key[1]}:{key[2]} {key[0]} {question}: ast {ours!r}, libcst {theirs!r}")

    for key in cst_statements.keys() - ast_statements.keys():
        mismatches.append(f"{where_file}:{key[1]}:{key[2]} {key[0]} has no ast twin")
    for key in ast_statements.keys() - cst_statements.keys():
        mismatches.append(f"{where_file}:{key[1]}:{key[2]} {key[0]} has no libcst twin")
    for key, ours in ast_statements.items():
        theirs = cst_statements.get(key)
        if theirs is None:
            continue
        stats["statements"] += 1
        kind = key[0]
        check(key, "exits([statement])", ast_flow.exits([ours]), flow.exits([theirs]))
        check(
            key,
            "exits([statement], exit calls)",
            ast_flow.exits([ours], ast_flow._looks_like_exit),
            flow.exits([theirs], loops._looks_like_exit),
        )
        if kind != "match":
            check(key, "exits(body)", ast_flow.exits(ours.body), flow.exits(theirs.body))
        if kind in ("while", "if"):
            check(key, "is_constant_true(test)", ast_flow.is_constant_true(ours.test), flow.is_constant_true(theirs.test))
            check(key, "checks_stop_signal(test)", ast_flow.checks_stop_signal(ours.test), loops.checks_stop_signal(theirs.test))
            check(key, "words(test)", _words(ast_flow._words(ours.test)), _cst_words(theirs.test))
        if kind == "while":
            check(key, "is_endless", ast_flow.is_endless(ours), loops.is_endless(theirs))
        if kind == "for":
            check(key, "is_non_empty_iterable(iter)", ast_flow.is_non_empty_iterable(ours.iter), flow.is_non_empty_iterable(theirs.iter))
        if kind in ("while", "for"):
            check(
                key,
                "left_after",
                {ast_spans[i] for i in ast_flow.left_after(ours)},
                {cst_spans[i] for i in flow.left_after(theirs)},
            )
            check(key, "exits_on_stop_signal(body)", ast_flow.exits_on_stop_signal(ours.body), loops.exits_on_stop_signal(theirs.body))
        if kind in ("try", "trystar") and ours.finalbody:
            check(
                key,
                "escaping_jumps",
                [ast_spans[id(j)] for j in ast_flow.escaping_jumps(ours.finalbody)],
                [cst_spans[id(j)] for j in flow.escaping_jumps(theirs.finalbody.body)],
            )
        if kind == "with":
            check(key, "locks_rows(body)", ast_flow.locks_rows(ours.body), rows.locks_rows(theirs.body))
    return mismatches


_STATS: dict = {}


def test_ast_answers_as_libcst_over_real_code():
    stats = _STATS
    stats.update(files=0, left_out=0, statements=0, answers=0)
    started = time.perf_counter()
    mismatches: list[str] = []
    for path in _files():
        try:
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        mismatches += _compare(path, text, stats)
    stats["seconds"] = time.perf_counter() - started
    assert stats["files"] > 100 and stats["statements"] > 1000, stats
    assert not mismatches, f"{len(mismatches)} disagreements:\n" + "\n".join(mismatches[:50])


def test_ast_flow_does_not_import_libcst():
    code = "import sys, bgcheck.syntax.ast_flow; sys.exit('libcst' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


# --- what each function is for ----------------------------------------------------------------


def _both(source: str) -> tuple[ast.AST, cst.CSTNode]:
    """The first statement of ``source``, as ast and as libcst."""
    source = textwrap.dedent(source)
    return ast.parse(source).body[0], parse_module(source).body[0]


def _calls(found: set, tree: ast.AST) -> list[str]:
    return sorted(n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and id(n) in found and isinstance(n.func, ast.Name))


def test_exits():
    ours, theirs = _both(
        """
        if item is None:
            break
        elif item == 0:
            sys.exit(1)
        else:
            return item
        """
    )
    assert ast_flow.exits([ours]) == flow.exits([theirs]) == {"break", "fall", "return"}
    assert ast_flow.exits([ours], ast_flow._looks_like_exit) == {"break", "raise", "return"}
    ours, theirs = _both("while True:\n    if done():\n        break\n")
    assert ast_flow.exits([ours]) == flow.exits([theirs]) == {"fall"}


def test_is_constant_true_and_non_empty_iterable():
    assert [ast_flow.is_constant_true(ast.parse(s, mode="eval").body) for s in ("True", "1", "'x'", "(0,)")] == [True] * 4
    assert [ast_flow.is_constant_true(ast.parse(s, mode="eval").body) for s in ("False", "0", "''", "f'x'", "x")] == [False] * 5
    assert ast_flow.is_non_empty_iterable(ast.parse("range(3)", mode="eval").body)
    assert not ast_flow.is_non_empty_iterable(ast.parse("range(True)", mode="eval").body)  # a Name in libcst


def test_left_after():
    source = """
        while True:
            item = take()
            if item is None:
                stop(item)
                break
            try:
                raise Failed(describe(item))
            except Failed:
                log(item)
            handle(item)
        """
    ours, theirs = _both(source)
    assert _calls(ast_flow.left_after(ours), ours) == ["stop"]
    assert len(flow.left_after(theirs)) == 1


def test_escaping_jumps():
    ours, theirs = _both("try:\n    pass\nfinally:\n    for x in y:\n        break\n    return 1\n")
    assert [type(j).__name__ for j in ast_flow.escaping_jumps(ours.finalbody)] == ["Return"]
    assert len(flow.escaping_jumps(theirs.finalbody)) == 1
    ours, theirs = _both("try:\n    pass\nfinally:\n    def f():\n        return 1\n")
    assert ast_flow.escaping_jumps(ours.finalbody) == [] == flow.escaping_jumps(theirs.finalbody)


def test_is_endless_and_stop_signals():
    endless, endless_cst = _both("while True:\n    work()\n")
    assert ast_flow.is_endless(endless) and loops.is_endless(endless_cst)
    stops, stops_cst = _both("while True:\n    if self.stopping:\n        sys.exit(0)\n    work()\n")
    assert ast_flow.exits_on_stop_signal(stops.body) and loops.exits_on_stop_signal(stops_cst.body)
    assert not ast_flow.is_endless(stops) and not loops.is_endless(stops_cst)
    assert ast_flow.checks_stop_signal(ast.parse("not event.is_set()", mode="eval").body)
    assert not ast_flow.checks_stop_signal(ast.parse("queue.empty()", mode="eval").body)


def test_locks_rows():
    locked, locked_cst = _both("with atomic():\n    rows = Job.objects.select_for_update(skip_locked=True)\n")
    assert ast_flow.locks_rows(locked.body) and rows.locks_rows(locked_cst.body)
    sql, sql_cst = _both("with conn:\n    cur.execute(f'SELECT * FROM {t} FOR UPDATE SKIP LOCKED')\n")
    assert ast_flow.locks_rows(sql.body) and rows.locks_rows(sql_cst.body)
    plain, plain_cst = _both("with conn:\n    cur.execute(b'SELECT 1 FOR UPDATE')  # bytes: not read\n")
    assert not ast_flow.locks_rows(plain.body) and not rows.locks_rows(plain_cst.body)


def test_known_differences_answer_the_meaning():
    """The shapes _Unmatchable leaves out: ast keeps values, and ast_flow answers by them."""
    assert not ast_flow.is_constant_true(ast.parse("0x00", mode="eval").body)  # libcst: true
    assert flow.is_constant_true(parse_module("0x00\n").body[0].body[0].value)
    assert ast_flow.locks_rows(ast.parse("q = 'SELECT 1 FOR ' 'UPDATE'").body)  # libcst: no
    assert not rows.locks_rows(parse_module("q = 'SELECT 1 FOR ' 'UPDATE'\n"))
    for source in ("while 0_0:\n    pass\n", "for c in 'a' 'b':\n    pass\n", "x = f'FOR\\tUPDATE'\n"):
        unmatchable = _Unmatchable()
        walk(parse_module(source), unmatchable)
        assert unmatchable.found, source


if __name__ == "__main__":  # the counts for a report: python tests/test_ast_flow.py
    try:
        test_ast_answers_as_libcst_over_real_code()
    finally:
        print(_STATS)
