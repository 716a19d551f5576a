"""BG001 unused-noqa: ``# noqa: BGxxx`` codes that silence nothing, and the safe fix that drops them.

Run after a file's phase 2, from what its ``# noqa`` comments actually silenced. Only bgcheck's
codes are judged: another tool's (``E501``) and a bare ``# noqa`` (which may be flake8's) are
never reported. A code of a rule that did not run (not selected, preview) is not reported either:
it may silence something in a run that selects it. A ``BG`` code no rule has (``BG999``) is.
"""

from __future__ import annotations

from typing import Iterable, Optional

from bgcheck.diagnostics import BG000_CODE, Applicability, Diagnostic, Edit, Fix, Location, MAX_MESSAGE, clip
from bgcheck.rules import catalog
from bgcheck.rules.noqa import UnusedNoqa
from bgcheck.run.noqa import Directive, NoqaCodes, listed_directives, suppressing_code

CODE = UnusedNoqa.code
_KNOWN = frozenset(row[0] for row in catalog.RULES)


def unused_noqa(
    display: str, text: str, noqa: dict[int, NoqaCodes], silenced: Iterable[tuple[Diagnostic, int]], enabled: frozenset[str]
) -> list[Diagnostic]:
    """BG001 for each ``# noqa:`` of ``text`` that lists bgcheck codes it did not use. ``silenced``:
    the (finding, its statement's first line) pairs the file's ``# noqa`` comments suppressed;
    ``enabled``: the codes of the rules that ran."""
    used: set[tuple[int, str]] = set()
    for diagnostic, statement_line in silenced:
        for line in (diagnostic.location.line, statement_line):
            by = suppressing_code(noqa.get(line), diagnostic.code)
            if by is not None:
                used.add((line, by))
    found = []
    for directive in listed_directives(text):
        listed = [code for code, _start, _end in directive.codes]
        if CODE in listed:
            continue  # ``# noqa: BG001``: keep this list as it is
        unknown = [c for c in listed if c.startswith("BG") and c not in _KNOWN and c != BG000_CODE]
        unused = [c for c in listed if c in enabled and c != BG000_CODE and (directive.line, c) not in used]
        if unknown or unused:
            found.append(_finding(display, text, directive, dict.fromkeys(unused), dict.fromkeys(unknown)))
    return found


def _finding(display: str, text: str, directive: Directive, unused: dict, unknown: dict) -> Diagnostic:
    parts = [f"{label}: {', '.join(f'`{c}`' for c in codes)}" for label, codes in (("unused", unused), ("unknown", unknown)) if codes]
    line = directive.line
    location = Location(display, line, directive.start + 1, line, directive.end + 1)
    edit = _removal(text, directive, set(unused) | set(unknown))
    fix = Fix(Applicability.SAFE, "Remove the unused `noqa` codes", (edit,)) if edit is not None else None
    return Diagnostic(
        code=CODE,
        name=UnusedNoqa.name,
        severity=UnusedNoqa.severity,
        message=clip(f"Unused `noqa` directive ({'; '.join(parts)})", MAX_MESSAGE),
        explanation="It silences nothing here, and would hide a future finding on this line. Remove the codes it does not use.",
        location=location,
        fix=fix,
    )


def _removal(text: str, directive: Directive, drop: set) -> Optional[Edit]:
    """The edit that removes the codes in ``drop`` from the list, or the whole directive when no
    code is left (the whole comment when the directive starts it)."""
    line = directive.line
    kept = [code for code, _start, _end in directive.codes if code not in drop]
    if kept:
        first, last = directive.codes[0][1], directive.codes[-1][2]
        return Edit(line, first + 1, line, last + 1, ", ".join(kept))
    line_text = _line(text, line)
    if directive.start == directive.comment_start:
        start, end = directive.comment_start, directive.comment_end  # the comment is the directive (and its reason)
    else:
        start, end = directive.start, directive.end  # ``# type: ignore  # noqa: BG101``: the directive only
    while start > 0 and line_text[start - 1] in " \t":
        start -= 1
    return Edit(line, start + 1, line, end + 1, "")


def _line(text: str, line: int) -> str:
    lines = text.split("\n")
    return lines[line - 1].removesuffix("\r") if 0 < line <= len(lines) else ""
