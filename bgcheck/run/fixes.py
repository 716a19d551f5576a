"""Applying the rules' fixes: ``bgcheck check --fix``, ``--unsafe-fixes``, ``--diff``.

A rule attaches a ``Fix`` to a finding (``bgcheck.diagnostics``: edits in line/column terms,
computed in phase 2 where the node is at hand). Here a file's fixes are applied in passes, as
ruff does: a pass applies every applicable fix whose edits neither overlap nor touch those of a
fix applied before it in the same pass; then the file is checked again (within its project) and
the next pass applies what is offered then, until a pass changes nothing or ``MAX_PASSES``.
Fixes that collided wait for a later pass, so a second ``--fix`` changes nothing.

Never applied: a fix whose edits touch a line whose ``# noqa`` covers the fix's code, and a pass
whose result does not parse (the file keeps the last text that did; a bug in a fix must not
break the user's code). Comments and formatting outside the edited spans are kept byte for byte.
"""

from __future__ import annotations

import codecs
import difflib
import tokenize
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Callable, Iterable, Optional, Sequence

from bgcheck.diagnostics import Diagnostic, Edit, is_applicable
from bgcheck.run.noqa import is_suppressed, parse_noqa

MAX_PASSES = 10


# ---------------------------------------------------------------------------
# one pass over one text


def apply_pass(text: str, diagnostics: Sequence[Diagnostic], unsafe: bool) -> tuple[str, list[Diagnostic]]:
    """Apply the applicable fixes of ``diagnostics`` (all of one file) that do not collide:
    the new text and the findings whose fix was applied."""
    noqa = parse_noqa(text)
    starts = _line_starts(text)
    taken: list[tuple[int, int]] = []  # spans of the edits applied in this pass
    replacements: list[tuple[int, int, str]] = []
    applied: list[Diagnostic] = []
    seen: set = set()
    candidates = [d for d in diagnostics if is_applicable(d, unsafe)]
    for d in sorted(candidates, key=lambda d: (min(d.fix.edits), d.code)):
        if d.fix.edits in seen:
            applied.append(d)  # the same change offered twice (two findings, one fix): made once
            continue
        spans = [_span(starts, text, edit) for edit in sorted(d.fix.edits)]
        if any(span is None for span in spans):
            continue  # positions outside the text: a stale fix
        if any(_touches_noqa(noqa, d.code, edit) for edit in d.fix.edits):
            continue
        if any(_collide(span, other) for span in spans for other in taken):
            continue  # the next pass, once the file has been checked again
        if any(_collide(a, b) for i, a in enumerate(spans) for b in spans[i + 1 :]):
            continue  # a fix's own edits must be disjoint
        taken.extend((start, end) for start, end, _content in spans)
        replacements.extend(spans)
        seen.add(d.fix.edits)
        applied.append(d)
    for start, end, content in sorted(replacements, reverse=True):
        text = text[:start] + content + text[end:]
    return text, applied


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for index, char in enumerate(text):
        if char == "\n":
            starts.append(index + 1)
    return starts


def _offset(starts: list[int], text: str, line: int, column: int) -> Optional[int]:
    if not 0 < line <= len(starts) or column < 1:
        return None
    line_end = starts[line] - 1 if line < len(starts) else len(text)  # the "\n" itself is not on the line
    if text[starts[line - 1] : line_end].endswith("\r"):
        line_end -= 1
    offset = starts[line - 1] + column - 1
    return offset if offset <= line_end else None


def _span(starts: list[int], text: str, edit: Edit) -> Optional[tuple[int, int, str]]:
    start = _offset(starts, text, edit.line, edit.column)
    end = _offset(starts, text, edit.end_line, edit.end_column)
    if start is None or end is None or end < start:
        return None
    return (start, end, edit.content)


def _collide(a: tuple, b: tuple) -> bool:
    """Overlapping or touching spans (two insertions at one point included)."""
    return a[0] <= b[1] and b[0] <= a[1]


def _touches_noqa(noqa: dict, code: str, edit: Edit) -> bool:
    last = edit.end_line - 1 if edit.end_column == 1 and edit.end_line > edit.line else edit.end_line
    return is_suppressed(noqa, code, range(edit.line, last + 1))


def parses(text: str) -> bool:
    import libcst as cst

    try:
        cst.parse_module(text)
    except Exception:  # libcst's syntax error, or another of its failures on exotic input
        return False
    return True


# ---------------------------------------------------------------------------
# a file, pass after pass


@dataclass
class FileFix:
    display: str  # the path as the run reports it
    original: str
    fixed: str
    fixed_count: int = 0  # findings whose fix was applied, over all passes
    remaining: list[Diagnostic] = field(default_factory=list)  # the fixed text's findings

    @property
    def changed(self) -> bool:
        return self.fixed != self.original

    def diff(self) -> str:
        return "".join(
            difflib.unified_diff(
                self.original.splitlines(keepends=True),
                self.fixed.splitlines(keepends=True),
                fromfile=f"a/{self.display}",
                tofile=f"b/{self.display}",
            )
        )


def fix_file(
    display: str,
    text: str,
    diagnostics: list[Diagnostic],
    recheck: Callable[[str], list[Diagnostic]],
    unsafe: bool,
    acceptable: Callable[[str], bool] = lambda text: True,
) -> FileFix:
    """Apply fixes to one file's text until it is stable. ``recheck(text)``: the findings of the
    file with this text (checked within its project); ``acceptable(text)``: can it be written."""
    outcome = FileFix(display, text, text, remaining=list(diagnostics))
    for _ in range(MAX_PASSES):
        new_text, applied = apply_pass(outcome.fixed, outcome.remaining, unsafe)
        if not applied or new_text == outcome.fixed or not parses(new_text) or not acceptable(new_text):
            break
        outcome.fixed = new_text
        outcome.fixed_count += len(applied)
        outcome.remaining = recheck(new_text)
    return outcome


@dataclass
class FixRun:
    files: list[FileFix] = field(default_factory=list)
    stdin_output: bytes = b""  # with `-`: the fixed source (the original when nothing was fixed)

    @property
    def fixed_count(self) -> int:
        return sum(outcome.fixed_count for outcome in self.files)


def fix_run(result, recheck: Callable[[str, bytes], list[Diagnostic]], unsafe: bool, stdin=None, write: bool = False) -> FixRun:
    """Fix every file of a finished run that has an applicable fix. ``recheck(display, data)``:
    the findings of that file with these bytes. ``stdin``: (path, bytes) of a run over stdin.
    With ``write``, fixed files are written back; ``result`` then holds the findings that remain
    (and ``result.fixed`` how many were fixed)."""
    from bgcheck.load.source import decode_source

    stdin_display = Path(stdin[0]).as_posix() if stdin is not None else None
    by_file: dict[str, list[Diagnostic]] = {}
    for d in result.diagnostics:
        by_file.setdefault(d.path, []).append(d)
    run = FixRun(stdin_output=stdin[1] if stdin is not None else b"")
    for display, diagnostics in by_file.items():
        if not any(is_applicable(d, unsafe) for d in diagnostics):
            continue
        try:
            data = stdin[1] if display == stdin_display else Path(display).read_bytes()
            text = decode_source(data)
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
            continue  # gone or changed since the check: left alone
        if not round_trips(data, text):
            continue
        outcome = fix_file(
            display,
            text,
            diagnostics,
            lambda new_text: recheck(display, encode_like(data, new_text)),
            unsafe,
            acceptable=lambda new_text: encode_like(data, new_text) is not None,
        )
        if not outcome.changed:
            continue
        run.files.append(outcome)
        new_data = encode_like(data, outcome.fixed)
        if display == stdin_display:
            run.stdin_output = new_data
        elif write:
            Path(display).write_bytes(new_data)
    fixed_paths = {outcome.display: outcome for outcome in run.files}
    if fixed_paths:
        result.diagnostics = [d for d in result.diagnostics if d.path not in fixed_paths]
        for outcome in run.files:
            result.diagnostics.extend(outcome.remaining)
            result.sources[outcome.display] = outcome.fixed
        result.diagnostics.sort(key=Diagnostic.sort_key)
    result.fixed = run.fixed_count
    return run


# ---------------------------------------------------------------------------
# bytes: a fixed file is written in the encoding it was read in


def encoding_of(data: bytes) -> tuple[str, bool]:
    """(encoding, has a UTF-8 BOM) of a source file's bytes, as the interpreter reads them."""
    encoding, _ = tokenize.detect_encoding(BytesIO(data).readline)
    return ("utf-8" if encoding == "utf-8-sig" else encoding), data.startswith(codecs.BOM_UTF8)


def encode_like(data: bytes, text: str) -> Optional[bytes]:
    """``text`` encoded as ``data`` was; None when it cannot be (the file keeps its bytes)."""
    encoding, bom = encoding_of(data)
    try:
        return (codecs.BOM_UTF8 if bom else b"") + text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return None


def round_trips(data: bytes, text: str) -> bool:
    """Does ``text`` (the decoded, normalised source) give back ``data`` exactly? Not when the file
    ends lines with a lone CR, which the analysis reads as LF: such a file is not rewritten."""
    return encode_like(data, text) == data
