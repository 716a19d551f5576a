"""``bgcheck check --add-noqa``: a ``# noqa: CODE`` for every finding of the run, as ruff's
--add-noqa, so that a project can adopt bgcheck and fix its findings one by one. A new comment
carries a reason placeholder (each suppression should say why it is safe: the README's
``# noqa: BG101 - the supervisor restarts this task``); a code joins a ``# noqa:`` list already
on the line. Files are written in the encoding they were read in."""

from __future__ import annotations

import re
from pathlib import Path

from bgcheck.diagnostics import BG000_CODE
from bgcheck.run.fixes import encode_like, round_trips
from bgcheck.run.noqa import noqa_insertion

REASON_PLACEHOLDER = "- TODO: say why this is safe"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def add_noqa(result) -> tuple[int, list[str]]:
    """Add the directives to the files of a finished run: (how many codes were added, a warning
    for each finding that could not get one: a line ending inside a string or with a backslash)."""
    from bgcheck.load.source import decode_source

    by_file: dict[str, dict[int, list[str]]] = {}
    for d in result.diagnostics:
        if d.code != BG000_CODE:  # a file that does not parse has no comment to hold a directive
            by_file.setdefault(d.path, {}).setdefault(d.location.line - 1, []).append(d.code)
    added, warnings = 0, []
    for display, lines in sorted(by_file.items()):
        try:
            data = Path(display).read_bytes()
            text = decode_source(data)
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
            continue  # gone or changed since the check: left alone
        if not round_trips(data, text):
            continue  # lone CR line ends: not rewritten (as --fix)
        starts = [0] + [match.end() for match in _LINE_BREAK.finditer(text)]
        new_text = text
        for line in sorted(lines, reverse=True):  # from the end: earlier offsets stay valid
            codes = list(dict.fromkeys(lines[line]))
            insertion = noqa_insertion(text, line, codes, REASON_PLACEHOLDER)
            if insertion is None:  # a reported finding is not suppressed on its line: no comment can end it
                warnings.append(f"{display}:{line + 1}: no comment can end this line (it ends inside a string, or with a backslash): {', '.join(codes)} not suppressed")
                continue
            start, end, inserted = insertion
            new_text = new_text[: starts[line] + start] + inserted + new_text[starts[line] + end :]
            added += len(codes)
        new_data = encode_like(data, new_text)
        if new_data is not None and new_data != data:
            Path(display).write_bytes(new_data)
    return added, warnings
