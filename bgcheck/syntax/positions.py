"""Where the calls a summary keeps are written, read off the text (phase 1).

libcst computes positions by generating the code of the whole module while it
tracks every node, which costs more than the parse itself. A summary needs the
position of few calls (the first call of each target in each function: where a
chain of calls is shown), and each callee as written is known exactly
(``self._send``, or ``.submit`` on a receiver that is not a name), so the
call is found in the text as the n-th ``self._send(`` when it is the n-th call
of ``self._send`` the visitor met (a visitor meets calls in source order).

Occurrences in a comment, in a string on one line, in a string literal that spans
lines (the docstring that shows ``app.send_task(...)``) and after ``def`` are not
calls and are not counted. A call written unusually (``self .send(``, a name
split over lines) is not found: its position is unknown, never guessed.
"""

from __future__ import annotations

import bisect
import re
from itertools import accumulate
from typing import Iterable, Optional

_DEFINED = re.compile(r"(?:^|[^\w.])(?:def|class)[ \t]+$", re.MULTILINE)  # ``def precedence(``: defined, not called
_IDENTIFIER_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")


class CallCounter:
    """Counts, in source order, the calls of each callee as written, and keeps the ones to locate."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.wanted: list[tuple[int, str, int]] = []  # (id of the call node, callee as written, n)

    def count(self, key: str) -> int:
        n = self.counts.get(key, 0)
        self.counts[key] = n + 1
        return n

    def want(self, node_id: int, key: str, n: int) -> None:
        self.wanted.append((node_id, key, n))


def _in_code(text: str, line_start: int, offset: int) -> bool:
    """Is ``offset`` in code, not in a comment or a one-line string? (The line's text before it
    decides; a replacement field of an f-string is code.)"""
    prefix = text[line_start:offset]
    if "#" not in prefix and '"' not in prefix and "'" not in prefix:
        return True
    quote = None
    formatted = False
    fields = 0  # replacement fields open in the f-string
    escaped = False
    previous = ""
    for char in prefix:
        if quote is not None and not fields:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = None
            elif char == "{" and formatted:
                fields = 1 if previous != "{" else 0
        elif char == "#":
            return False
        elif char in "\"'" and not fields:
            quote, formatted = char, previous in "fF"
        elif fields and char in "{}":
            fields += 1 if char == "{" else -1
        previous = char
    return quote is None or fields > 0


def call_positions(text: str, wanted: Iterable[tuple[int, str, int]], string_spans: list[tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """id(call node) -> (line, column), both from 1, for the wanted calls found in ``text``.

    ``wanted``: (id, callee as written, n: the n-th call of it, from 0), in source order (so the
    first call of a dotted name lies after the call of a dotted name found before it);
    ``string_spans``: (start, end) offsets of the string literals that span lines, in order."""
    # each line's start from the lengths of the lines before it (in C: no Python step per line)
    line_starts = [0, *accumulate(map((1).__add__, map(len, text.split("\n")[:-1])))]
    span_starts = [start for start, _end in string_spans]
    found: dict[int, tuple[int, int]] = {}
    progress: dict[str, tuple[int, int]] = {}  # callee -> (occurrences found, where to look next)
    floor = 0  # where the last call of a dotted name was found: later ones start after it
    for node_id, written, n in wanted:
        method = written.startswith(".")
        seen, start = progress.get(written, (0, floor if n == 0 and not method else 0))
        offset = None
        while seen <= n:
            offset = _next_call(text, written, start, line_starts, string_spans, span_starts)
            if offset is None:
                break
            seen += 1
            start = offset + 1
        progress[written] = (seen, start)
        if offset is None or seen != n + 1:
            continue
        if not method:
            floor = offset + 1
        line = bisect.bisect_right(line_starts, offset) - 1
        found[node_id] = (line + 1, offset - line_starts[line] + 1)
    return found


def _next_call(text, written, start, line_starts, spans, span_starts) -> Optional[int]:
    """Where the next call of ``written`` (``a.b`` or ``.b``) starts at or after ``start``, in code."""
    method = written.startswith(".")
    size = len(written)
    while True:
        offset = text.find(written, start)
        if offset < 0:
            return None
        start = offset + 1
        after = offset + size
        while after < len(text) and text[after] in " \t":
            after += 1
        if after >= len(text) or text[after] != "(":
            continue
        if method:
            offset += 1  # the method's name
        elif offset and text[offset - 1] in _IDENTIFIER_CHARS:
            continue  # ``x.send(`` is not a call of ``send``
        where = bisect.bisect_right(span_starts, offset) - 1
        if where >= 0 and offset < spans[where][1]:
            start = spans[where][1]  # inside a string that spans lines
            continue
        line_start = line_starts[bisect.bisect_right(line_starts, offset) - 1]
        if where >= 0 and spans[where][1] > line_start:
            line_start = spans[where][1]  # the line goes on after a string that ended on it
        if _in_code(text, line_start, offset) and not _DEFINED.search(text, line_start, offset):
            return offset
