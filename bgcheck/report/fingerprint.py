"""Stable fingerprints of findings, for SARIF ``partialFingerprints`` and baselines.

A fingerprint survives unrelated edits and line shifts: it hashes the code,
the path, and the flagged source text with white space folded (not the line
number), plus an occurrence count to tell identical lines in one file apart.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter

_SPACE = re.compile(r"\s+")
# Python ends a line at \n, \r\n or \r only; str.splitlines() also splits at form feeds,
# \x1c-\x1e, \x85, \u2028 and \u2029, which would shift every later line.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def source_lines(source: str) -> list[str]:
    """The lines of a Python source as the tokenizer (and so every reported line number) counts them."""
    lines = _LINE_BREAK.split(source)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _flagged_text(source: str | None, diagnostic) -> str:
    if not source:
        return ""
    lines = source_lines(source)
    loc = diagnostic.location
    first, last = loc.line - 1, min(loc.end_line, loc.line + 5) - 1
    if first < 0 or first >= len(lines):
        return ""
    return _SPACE.sub(" ", " ".join(lines[first : last + 1])).strip()


def fingerprints(diagnostics, sources: dict) -> list[str]:
    """One fingerprint per diagnostic, in order."""
    seen: Counter = Counter()
    result = []
    for diagnostic in diagnostics:
        text = _flagged_text(sources.get(diagnostic.path), diagnostic)
        base = f"{diagnostic.code}\0{diagnostic.path}\0{text}"
        seen[base] += 1
        digest = hashlib.sha256(f"{base}\0{seen[base]}".encode("utf-8")).hexdigest()[:32]
        result.append(digest)
    return result
