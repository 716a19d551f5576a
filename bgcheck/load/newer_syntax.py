"""Phase 1 for a file the running Python cannot parse but libcst can: syntax newer than this Python
(PEP 695 type parameters and ``type`` statements, PEP 696 defaults, PEP 701 f-strings, PEP 758
``except A, B:``, PEP 750 t-strings) read on an older one.

libcst reads the file and says where the newer constructs are; each is rewritten in the text into
older syntax of the same length in UTF-8 bytes, line for line, and CPython's ``ast`` parses the
result. So every node the summary builder meets keeps the line and column it has in the original
text (columns are ast's byte offsets, which the builder turns into characters of the original
text), and the unchanged builder makes the summary a Python that reads the syntax natively
makes:

* type parameters (``def f[T: int = str](x)``, ``class C[T, *Ts, **P](B)``) become spaces: the
  builder reads no type parameters (on 3.12 it skips ``type_params`` too);
* ``type X[T] = v`` becomes ``X      = v``, parsed, then replaced by a ``TypeAlias`` node (the
  ast's own on 3.12 and later, a stand-in before: syntax/newer_nodes.py): the builder binds ``X`` to no value it knows;
* ``except A, B:`` (and ``except*``) gets its parentheses: the space after ``except`` becomes
  ``(``, and ``)`` takes a space before or after the colon when there is one (else the rest of
  the line moves one column: only a body written on the ``except`` line);
* an f-string (or an implicit concatenation holding one) that this Python cannot parse becomes a
  placeholder name in parentheses, over the same bytes; after the parse the placeholder is
  replaced by the ``JoinedStr`` built from libcst's parts, each expression in it parsed on its
  own at its place (blank lines and spaces before it), nested f-strings the same way. A t-string
  becomes a ``TemplateStr`` the same way.

Design: rewriting the text keeps one converter from text to the builder's input (CPython's), where
converting libcst's whole tree to ast would be a second one to keep equal to it, node for node;
only the strings are built by hand. tests/test_newer_syntax.py holds this path to the native one
on every file this Python reads (the rewrite is then empty: the same tree).

Only on the failure path of CPython's parse: a cold run of files this Python reads never gets here.
"""

from __future__ import annotations

import ast
import warnings
from typing import Optional

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from bgcheck.syntax.newer_nodes import Interpolation, TemplateStr, TypeAlias
from bgcheck.syntax.parse import parse_module


class CannotRewrite(Exception):
    """libcst reads the file but its newer syntax cannot be rewritten so (no room for the older
    spelling on a line): the file is a BG000."""


_Position = tuple  # (line from 1, byte column from 0)


def parse_newer(text: str) -> ast.Module:
    """The ast of ``text`` (newlines normalized) as a Python that reads its syntax would give it.
    Raises libcst's ParserSyntaxError when libcst cannot read it either, CannotRewrite (see there)."""
    wrapper = MetadataWrapper(parse_module(text), unsafe_skip_copy=True)
    return _Rewriter(text, wrapper.resolve(PositionProvider)).module(wrapper.module)


class _Rewriter:
    def __init__(self, text: str, positions) -> None:
        self.lines = text.split("\n")
        self.positions = positions
        self.code = cst.Module([]).code_for_node

    # --- positions ------------------------------------------------------------
    def _at(self, position) -> _Position:
        """libcst's (line, character column) as (line, byte column)."""
        line = self.lines[position.line - 1]
        column = position.column if line.isascii() else len(line[: position.column].encode("utf-8"))
        return position.line, column

    def start(self, node) -> _Position:
        return self._at(self.positions[node].start)

    def end(self, node) -> _Position:
        return self._at(self.positions[node].end)

    def source(self, node) -> str:
        span = self.positions[node]
        (line, column), (end_line, end_column) = (span.start.line, span.start.column), (span.end.line, span.end.column)
        if line == end_line:
            return self.lines[line - 1][column:end_column]
        return "\n".join([self.lines[line - 1][column:], *self.lines[line : end_line - 1], self.lines[end_line - 1][:end_column]])

    # --- the module -------------------------------------------------------------
    def module(self, module: cst.Module) -> ast.Module:
        finder = _Finder(self)
        module.visit(finder)
        document = [line.encode("utf-8") for line in self.lines]
        edits = list(finder.edits)
        placeholders = {}
        for node in finder.strings:
            placeholders[self._placeholder(node, edits)] = node
        tree = self._parse(document, edits, "exec")
        return _Substitute(self, placeholders, finder.aliases).visit(tree)

    def _placeholder(self, node, edits: list) -> _Position:
        """Edits that put ``(___)`` over a string's bytes; the position of the name."""
        (line, column), (end_line, end_column) = self.start(node), self.end(node)
        edits += _fill(self, (line, column), (end_line, end_column), b"(", b")", name=True)
        return line, column + 1

    def _parse(self, document: list[bytes], edits: list, mode: str):
        lines = list(document)
        for line, column, end_column, content in sorted(edits, key=lambda e: (e[0], -e[1])):
            old = lines[line - 1]
            lines[line - 1] = old[:column] + content + old[end_column:]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes and the like: the code's own business
            return ast.parse(b"\n".join(lines).decode("utf-8"), mode=mode)

    # --- strings --------------------------------------------------------------------
    def expression(self, node: cst.BaseExpression) -> ast.expr:
        """The ast of an expression inside an f-string, parsed where it stands: the lines above it
        empty, ``(`` and spaces before it on its line (so its nodes get their places in the file)."""
        line, column = self.start(node)
        end_line, end_column = self.end(node)
        document = [b""] * (line - 1)
        document.append(b"(" + b" " * (column - 1) + self.lines[line - 1].encode("utf-8")[column:])
        document += [text.encode("utf-8") for text in self.lines[line:end_line]]
        document[end_line - 1] = document[end_line - 1][:end_column] + b")"
        finder = _Finder(self)
        node.visit(finder)
        edits: list = []
        placeholders = {self._placeholder(string, edits): string for string in finder.strings}
        tree = self._parse(document, edits, "exec")
        return _Substitute(self, placeholders, {}).visit(tree).body[0].value

    def string(self, node) -> ast.expr:
        """The JoinedStr (or TemplateStr) of a string expression, at its place."""
        parts = _string_parts(node)
        template = any(isinstance(part, cst.TemplatedString) for part in parts)
        if all(isinstance(part, cst.SimpleString) for part in parts):  # ``"a" "b"``: a plain constant
            return self._placed(_constant(type(parts[0].evaluated_value)().join(part.evaluated_value for part in parts)), node)
        values: list = []
        for part in parts:
            if isinstance(part, cst.SimpleString):
                values.append(_constant(part.evaluated_value))
            else:
                values += self._parts(part.parts, part.start, part.end, template)
        joined = (TemplateStr if template else ast.JoinedStr)(values=_folded(values))
        return self._placed(joined, node)

    def _parts(self, parts, start: str, end: str, template: bool) -> list:
        opening = "".join(letter for letter in start if letter not in "fFtT")  # rf""" -> r"""
        values: list = []
        for part in parts:
            if isinstance(part, (cst.FormattedStringText, cst.TemplatedStringText)):
                values.append(_constant(_text_value(part.value, opening, end)))
                continue
            expression = self.expression(part.expression)
            written = self.code(part.whitespace_before_expression) + self.code(part.expression) + self.code(part.whitespace_after_expression)
            conversion = ord(part.conversion) if part.conversion else -1
            if part.equal is not None:
                values.append(_constant(written + self.code(part.equal)))
                if conversion == -1 and part.format_spec is None:
                    conversion = ord("r")
            spec = None
            if part.format_spec is not None:
                spec = ast.JoinedStr(values=_folded(self._parts(part.format_spec, start, end, template)))
            if template:
                values.append(Interpolation(value=expression, str=written, conversion=conversion, format_spec=spec))
            else:
                values.append(ast.FormattedValue(value=expression, conversion=conversion, format_spec=spec))
        return values

    def _placed(self, built: ast.expr, node) -> ast.expr:
        """``built`` and the parts it made at the place of ``node`` (as 3.11 places an f-string's parts)."""
        (line, column), (end_line, end_column) = self.start(node), self.end(node)
        stack = [built]
        while stack:
            item = stack.pop()
            if not hasattr(item, "lineno"):
                item.lineno, item.col_offset, item.end_lineno, item.end_col_offset = line, column, end_line, end_column
                stack += [v for v in getattr(item, "values", ())] + [v for v in (getattr(item, "format_spec", None),) if v is not None]
        return built


def _string_parts(node) -> list:
    if isinstance(node, cst.ConcatenatedString):
        return _string_parts(node.left) + _string_parts(node.right)
    return [node]


def _constant(value) -> ast.Constant:
    return ast.Constant(value=value, kind=None)


def _folded(values: list) -> list:
    """Adjacent text joined and empty text left out, as CPython's parser does."""
    out: list = []
    for value in values:
        if type(value) is ast.Constant:
            if not value.value:
                continue
            if out and type(out[-1]) is ast.Constant:
                out[-1] = _constant(out[-1].value + value.value)
                continue
        out.append(value)
    return out


def _text_value(text: str, opening: str, end: str) -> str:
    """The value of an f-string's text part (``{{`` is a brace, escapes as in a string literal
    opened with ``opening``: the f-string's prefix but for the f, and its quote)."""
    text = text.replace("{{", "{").replace("}}", "}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = ast.literal_eval(opening + text + end)
    except (SyntaxError, ValueError):  # a text part ending in a backslash before ``{``: keep it as written
        return text
    return value if isinstance(value, str) else text


def _fill(rewriter: _Rewriter, start: _Position, end: _Position, head: bytes, tail: bytes, name: bool = False, joined: bool = False) -> list:
    """Edits that write, over the same bytes of each line from ``start`` to ``end``: ``head`` at the
    start, ``tail`` ending at the end, spaces between (after ``head``, underscores to the end of its
    line: a name, when ``name``); ``joined``: outside brackets, a line that goes on ends in ``\\``."""
    (line, column), (end_line, end_column) = start, end
    edits = []
    for number in range(line, end_line + 1):
        first = column if number == line else 0
        last = end_column if number == end_line else len(rewriter.lines[number - 1].encode("utf-8"))
        width = last - first
        lead = head if number == line else b""
        trail = tail if number == end_line else b"\\" if joined else b""
        body = width - len(lead) - len(trail)
        if body < (1 if name and number == line else 0):
            raise CannotRewrite(f"no room on line {number} to write its older syntax")
        edits.append((number, first, last, lead + (b"_" if name and number == line else b" ") * body + trail))
    return edits


class _Finder(cst.CSTVisitor):
    """The newer constructs of a module (or of one expression), as edits of
    its text: type parameters, ``type`` statements, except tuples without parentheses, and the
    outermost strings this Python cannot parse."""

    def __init__(self, rewriter: _Rewriter) -> None:
        super().__init__()
        self.rewriter = rewriter
        self.edits: list = []
        self.strings: list = []
        self.aliases: set = set()  # where each ``type`` statement now an assignment starts

    def _blank(self, node) -> None:
        rewriter = self.rewriter
        self.edits += _fill(rewriter, rewriter.start(node), rewriter.end(node), b"", b"", joined=True)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if node.type_parameters is not None:
            self._blank(node.type_parameters)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if node.type_parameters is not None:
            self._blank(node.type_parameters)

    def visit_TypeAlias(self, node: cst.TypeAlias) -> None:
        rewriter = self.rewriter
        start = rewriter.start(node)
        # libcst's position of a parenthesised value starts inside its parentheses: keep them.
        value = node.value.lpar[0] if node.value.lpar else node.value
        self.edits += _fill(rewriter, start, rewriter.start(value), node.name.value.encode("utf-8"), b"=", joined=True)
        self.aliases.add(start)

    def visit_ExceptHandler(self, node) -> None:
        kind = node.type
        if not isinstance(kind, cst.Tuple) or kind.lpar:
            return
        rewriter = self.rewriter
        (line, column), (end_line, end_column) = rewriter.start(kind), rewriter.end(kind)
        text = rewriter.lines[line - 1].encode("utf-8")
        if column and text[column - 1 : column] == b" ":
            self.edits.append((line, column - 1, column, b"("))
        else:
            self.edits.append((line, column, column, b"("))
        after = rewriter.lines[end_line - 1].encode("utf-8")
        colon = end_column
        while after[colon : colon + 1] in (b" ", b"\t"):
            colon += 1
        if colon > end_column:  # ``B :`` -> ``B):``
            self.edits.append((end_line, end_column, end_column + 1, b")"))
        elif after[colon + 1 : colon + 2] == b" ":  # ``B: body`` -> ``B):body``
            self.edits.append((end_line, end_column, colon + 2, b"):"))
        else:
            self.edits.append((end_line, end_column, end_column, b")"))

    visit_ExceptStarHandler = visit_ExceptHandler

    def _string(self, node) -> bool:
        """An outermost string: rewritten when this Python cannot parse it, never looked into."""
        if not _reads_natively(self.rewriter.source(node)):
            self.strings.append(node)
        return False

    def visit_FormattedString(self, node) -> bool:
        return self._string(node)

    def visit_TemplatedString(self, node) -> bool:
        return self._string(node)

    def visit_ConcatenatedString(self, node) -> bool:
        return self._string(node)


def _reads_natively(source: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(f"({source})", mode="eval")
    except SyntaxError:
        return False
    return True


class _Substitute(ast.NodeTransformer):
    """The parsed rewrite with each placeholder replaced by its string and each ``type`` statement
    (parsed as an assignment) by a TypeAlias."""

    def __init__(self, rewriter: _Rewriter, placeholders: dict, aliases: set) -> None:
        self.rewriter = rewriter
        self.placeholders = placeholders
        self.aliases = aliases

    def visit_Name(self, node: ast.Name):
        string = self.placeholders.get((node.lineno, node.col_offset))
        if string is not None and node.id.strip("_") == "":
            return self.rewriter.string(string)
        return node

    def visit_Assign(self, node: ast.Assign):
        self.generic_visit(node)
        if (node.lineno, node.col_offset) not in self.aliases:
            return node
        name = node.targets[0]
        alias = TypeAlias(name=name, type_params=[], value=node.value)
        return ast.copy_location(alias, node)
