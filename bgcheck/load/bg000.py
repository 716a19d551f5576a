"""BG000: why a file is not analysed, in words a user can act on (a syntax error at the
position CPython gives, a nesting too deep and where, a known limit of libcst, a bug in
bgcheck and what to report)."""

from __future__ import annotations

import ast
import re
import sys
from typing import TYPE_CHECKING

from bgcheck.diagnostics import BG000_CODE, BG000_NAME, MAX_MESSAGE, Diagnostic, Location, Severity, clip

if TYPE_CHECKING:  # an annotation only: warm runs never import libcst
    import libcst as cst

# Set by the CLI's --debug (or BGCHECK_DEBUG): a file's internal error also prints its traceback.
DEBUG = False


def bg000(display: str, message: str, line: int = 1, column: int = 1, explanation: str = "") -> Diagnostic:
    """A file not analysed: ``message`` in at most MAX_MESSAGE characters (clipped: a reason quoted
    from Python or libcst can be long), the detail in ``explanation`` (--verbose, --show-explanations)."""
    return Diagnostic(
        code=BG000_CODE,
        name=BG000_NAME,
        severity=Severity.ERROR,
        message=clip(message, MAX_MESSAGE),
        location=Location(display, line, column, line, column),
        explanation=explanation,
    )


def _running_python() -> str:
    return f"{sys.version_info[0]}.{sys.version_info[1]}"


def internal_error(display: str, doing: str, exc: BaseException) -> Diagnostic:
    """BG000 for a file whose analysis failed inside bgcheck (a bug: the message says what to report)."""
    if DEBUG:
        import traceback

        print(f"bgcheck: internal error while {doing} {display}:", file=sys.stderr)
        traceback.print_exception(exc, file=sys.stderr)
    return bg000(
        display,
        f"file not analysed: bgcheck failed while {doing} it ({type(exc).__name__}: {short_reason(exc)})",
        explanation="The other files were checked. This is a bug in bgcheck: please report it with this file "
        "('bgcheck --debug check ...' prints the traceback).",
    )


def short_reason(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]


_ELIF = re.compile(r"^[ \t]*elif\b", re.MULTILINE)


def too_deep(display: str, text: str, doing: str) -> Diagnostic:
    """BG000 after a RecursionError, saying where the nesting is (measured on CPython's tree,
    iteratively: only on this failure path)."""
    message = f"file not analysed: it is nested too deeply to {doing}"
    try:
        tree = ast.parse(text)
    except (SyntaxError, RecursionError, MemoryError, ValueError):  # CPython gives up too (10,000 elifs)
        elifs = len(_ELIF.findall(text))
        if elifs > 100:
            return bg000(display, f"{message}: {elifs:,} `elif` branches", explanation=f"It has {elifs:,} `elif` branches (each one nests a level deeper).")
        return bg000(display, message)
    deepest, line, elifs = 0, 1, 0
    stack = [(tree, 0, 0)]  # (node, statement nesting, elif branches in a row)
    while stack:
        node, depth, chain = stack.pop()
        if depth > deepest:
            deepest, line, elifs = depth, getattr(node, "lineno", 1), chain
        for field in ("body", "orelse", "finalbody", "handlers"):
            for child in getattr(node, field, None) or ():
                if isinstance(child, (ast.stmt, ast.excepthandler)):
                    is_elif = field == "orelse" and isinstance(node, ast.If) and isinstance(child, ast.If) and len(node.orelse) == 1
                    stack.append((child, depth + 1, chain + 1 if is_elif else 0))
        for case in getattr(node, "cases", None) or ():
            stack.extend((child, depth + 1, 0) for child in case.body)
    where, detail = (
        (f": an `if`/`elif` chain of {elifs + 1:,} branches", f"The `if`/`elif` chain ending at line {line} has {elifs + 1:,} branches (each `elif` nests one level deeper).")
        if elifs > 100
        else (f": statements nest {deepest:,} levels deep", f"Statements nest {deepest:,} levels deep at line {line}.")
        if deepest > 100
        else ("", "")
    )
    return bg000(display, message + where, line if where else 1, explanation=detail)


# CPython's own limits, in its messages: the code is too deep for its parser, not wrong
_CPYTHON_LIMITS = ("too many nested", "nested too deeply", "too many statically", "too complex")


def cpython_limit(exc: SyntaxError) -> bool:
    """Is it one of CPython's own limits (the code is too deep for its parser, not wrong)?"""
    return any(limit in str(exc.msg) for limit in _CPYTHON_LIMITS)


def python_syntax_error(display: str, text: str, exc: SyntaxError) -> Diagnostic:
    """BG000 for a file CPython cannot parse, nor libcst (which reads the syntax of newer Pythons:
    load/newer_syntax.py), at CPython's position and in its words."""
    line, column = exc.lineno or 1, exc.offset or 1
    message = str(exc.msg)
    if cpython_limit(exc):
        return bg000(display, f"file not analysed: it is nested too deeply to parse ({message})", line, column)
    return bg000(
        display,
        f"file not analysed: syntax error: {message}",
        line,
        column,
        explanation=f"Neither Python {_running_python()} (the Python bgcheck runs on) nor libcst (which reads the syntax of "
        f"Python 3.0 to 3.14) parses it. Python {_running_python()} says: {message} (line {line}, column {column}).",
    )


def newer_syntax_error(display: str, exc: SyntaxError, reason: str) -> Diagnostic:
    """BG000 for a file libcst reads but whose newer syntax cannot be rewritten for this Python."""
    line, column = exc.lineno or 1, exc.offset or 1
    return bg000(
        display,
        f"file not analysed: syntax newer than Python {_running_python()} that bgcheck cannot rewrite for it",
        line,
        column,
        explanation=f"libcst reads the file, but its newer syntax could not be rewritten for Python {_running_python()} "
        f"({reason}; Python {_running_python()} says: {exc.msg}). Running bgcheck on the project's Python reads it.",
    )


def syntax_error(display: str, text: str, exc: cst.ParserSyntaxError) -> Diagnostic:
    """BG000 for a file libcst cannot parse, at the position CPython gives when it agrees."""
    try:
        py_tree = ast.parse(text)  # only on this failure path: CPython's message and position are the ones users know
    except SyntaxError as py_exc:
        line = py_exc.lineno or exc.editor_line
        column = py_exc.offset or 1
        return bg000(display, f"file not analysed: syntax error: {py_exc.msg}", line, column)
    except (RecursionError, MemoryError, ValueError):
        return bg000(display, "file not analysed: it is nested too deeply to parse", exc.editor_line, exc.editor_column)
    else:
        tree = py_tree
    first_line = exc.message.splitlines()[0] if exc.message else "syntax error"
    # libcst's own "error at L:C" is more exact than its editor position, which can be a line late
    where = re.search(r"error at (\d+):(\d+)", first_line)
    line, column = (int(where[1]), int(where[2]) + 1) if where else (exc.editor_line, exc.editor_column)
    why, line, column = _libcst_limit(tree, line, column)
    detail = first_line.removeprefix("parser error: ")
    return bg000(
        display,
        "file not analysed: valid Python that libcst (the parser bgcheck's rules use) cannot parse",
        line,
        column,
        explanation=f"It is valid Python, but libcst cannot parse it: {why}(libcst: {detail}).",
    )


def _short_source(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


def _libcst_limit(tree: ast.Module, line: int, column: int) -> tuple[str, int, int]:
    """Which known limit of libcst valid Python at ``line`` runs into, in words (or ""), and where."""
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and (node.target.lineno, node.target.col_offset) > (node.lineno, node.col_offset):
            return (
                f"line {node.lineno} annotates a parenthesized target (`({_short_source(node.target)}): ...`), "
                "which libcst does not support; write it without the parentheses ",
                node.lineno,
                node.col_offset + 1,
            )
        if (
            isinstance(node, (ast.Constant, ast.JoinedStr))
            and isinstance(getattr(node, "value", None), (str, bytes, list))
            and node.lineno < line <= (node.end_lineno or 0) + 1
        ):
            return (
                f"lines {node.lineno}-{node.end_lineno} are one implicit concatenation of "
                f"{node.end_lineno - node.lineno + 1:,} lines of string literals, more than libcst can parse in a row ",
                node.lineno,
                node.col_offset + 1,
            )
    return "", line, column
