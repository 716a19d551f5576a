"""Parsing an edited text again by parsing only the top-level statement the edit lies in.

The language server parses a document on every edit; libcst's parse of a 2,000-line file takes
most of an edit's analysis. An edit usually lies inside one top-level statement (a function, a
class): ``Parsed.edited`` diffs the old and the new text, parses only the new text of that
statement, and splices the statements it gives into the previous module in its place. The rest
of the module is the same objects as before, so the module's code (and every position computed
from it) is the new text.

The splice is taken only when a parse of the whole new text could not tell it apart: the edit
does not touch the blank lines and comments that lie between statements (libcst gives those to
one block or the next by their indentation), the lines after the statement start at column 0,
the statement's new text is whole statements ending with a line break, and the module's default
indentation (libcst's: the first indented line's) stays the same. Anything else is a full parse.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Optional

import libcst as cst


class Parsed:
    """A text, its module, and where each top-level statement's text starts (its leading blank
    lines and comments included), as far as known: ``starts[i]`` for ``module.body[i]``,
    ``starts[len(body)]`` where the footer starts."""

    def __init__(self, text: str, module: cst.Module, starts: list[int], first_indented: Optional[int]) -> None:
        self.text, self.module, self.starts = text, module, starts
        self.first_indented = first_indented  # index of the first statement with an indented block

    @classmethod
    def of(cls, text: str, module: cst.Module) -> Optional["Parsed"]:
        """A module parsed from ``text`` (None if it cannot be spliced into: no line break at
        the end). The statements' offsets are found when an edit needs them (code generation up
        to the edited statement)."""
        if not text.endswith("\n") or not module.has_trailing_newline:
            return None
        first = next((k for k, statement in enumerate(module.body) if _indents(statement)), None)
        return cls(text, module, [_skip_lines(text, 0, len(module.header))], first)

    def _find(self, offset: int) -> int:
        """The index of the statement whose text holds ``offset`` (-1 before the first one,
        ``len(body)`` in the footer), with ``starts`` known up to the one after it."""
        starts, body = self.starts, self.module.body
        while starts[-1] <= offset and len(starts) <= len(body):
            code = self.module.code_for_node(body[len(starts) - 1])
            if not self.text.startswith(code, starts[-1]):
                return -1  # libcst's code is not the text (it drops some trailing comments): no splice
            starts.append(starts[-1] + len(code))
        return bisect_right(starts, offset) - 1

    def edited(self, text: str) -> Optional["Parsed"]:
        """The new text parsed by splicing, or None when only a full parse can tell."""
        old = self.text
        prefix = _common_prefix(old, text)
        suffix = _common_suffix(old, text, min(len(old), len(text)) - prefix)
        if prefix == len(old) == len(text):
            return self
        i = self._find(prefix)
        if 0 < i <= len(self.module.body) and prefix == self.starts[i]:
            # at a boundary: text added at the end of the statement before (a line after a
            # function's last line), or at the start of this one
            return self._reparse(i - 1, prefix, len(old) - suffix, text) or self._reparse(i, prefix, len(old) - suffix, text)
        return self._reparse(i, prefix, len(old) - suffix, text)

    def _reparse(self, i: int, prefix: int, old_end: int, text: str) -> Optional["Parsed"]:
        """Parse the new text of statement i (the old text changed in [prefix, old_end))."""
        old, body = self.text, self.module.body
        if not 0 <= i < len(body) or len(self.starts) < i + 2:
            return None
        start, end = self.starts[i], self.starts[i + 1]
        token_start = _skip_lines(old, start, len(body[i].leading_lines))
        if prefix < token_start or old_end > end or not _all_at_column_0(old, end, self._token_start(i + 1)):
            return None
        source = text[token_start : end + len(text) - len(old)]
        if not source.endswith("\n"):
            return None
        try:
            sub = cst.parse_module(source)
        except Exception:  # noqa: BLE001 - a syntax error (or worse): the full parse says what
            return None
        if sub.header or sub.footer or not sub.body or sub.default_newline != self.module.default_newline:
            return None
        return self._splice(i, sub, token_start, text, source)

    def _token_start(self, i: int) -> int:
        """Where statement i's own code starts (after its leading lines); the footer's end past the last."""
        if i >= len(self.module.body):
            return len(self.text)
        return _skip_lines(self.text, self.starts[i], len(self.module.body[i].leading_lines))

    def _splice(self, i: int, sub: cst.Module, token_start: int, text: str, source: str) -> Optional["Parsed"]:
        new = list(sub.body)
        indented = [k for k, statement in enumerate(new) if _indents(statement)]
        first = self.first_indented
        if indented:
            if sub.default_indent != self.module.default_indent:
                return None
        elif first == i:
            return None  # the file's first indented line moves to a later statement: its default may change
        codes = [sub.code_for_node(statement) for statement in new]
        if "".join(codes) != source:
            return None
        lengths = [len(code) for code in codes]
        new[0] = new[0].with_changes(leading_lines=self.module.body[i].leading_lines)
        body = list(self.module.body)
        body[i : i + 1] = new
        delta = len(text) - len(self.text)
        offset = token_start
        middle = []
        for length in lengths[:-1]:
            offset += length
            middle.append(offset)
        starts = self.starts[: i + 1] + middle + [s + delta for s in self.starts[i + 1 :]]
        if first is None or first >= i:
            first = i + indented[0] if indented else (None if first is None else first + len(new) - 1)
        return Parsed(text, self.module.with_changes(body=body), starts, first)


def _skip_lines(text: str, offset: int, lines: int) -> int:
    for _ in range(lines):
        offset = text.index("\n", offset) + 1
    return offset


def _all_at_column_0(text: str, start: int, end: int) -> bool:
    """Are the lines in text[start:end] all empty or comments starting at column 0?"""
    offset = start
    while offset < end:
        if text[offset] not in "\n#":
            return False
        offset = text.index("\n", offset) + 1
    return True


def _indents(statement: cst.CSTNode) -> bool:
    """Does a top-level statement hold an indented block (an INDENT token)?"""
    if isinstance(statement, cst.Match):
        return True
    if isinstance(getattr(statement, "body", None), cst.IndentedBlock):
        return True
    for name in ("orelse", "finalbody"):
        part = getattr(statement, name, None)
        if part is not None and _indents(part):
            return True
    return any(_indents(handler) for handler in getattr(statement, "handlers", ()))


def _common_prefix(a: str, b: str) -> int:
    low, high = 0, min(len(a), len(b))
    while low < high:  # a[:low] == b[:low]; binary search on the first difference (slices compare in C)
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: str, b: str, limit: int) -> int:
    low, high = 0, limit
    la, lb = len(a), len(b)
    while low < high:
        middle = (low + high + 1) // 2
        if a[la - middle : la - low] == b[lb - middle : lb - low]:
            low = middle
        else:
            high = middle - 1
    return low
