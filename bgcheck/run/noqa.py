"""What the user silenced: ``# noqa`` comments (flake8/ruff style) and the configuration's
per-file ignores.

``# noqa`` alone suppresses every code on its line; ``# noqa: BG101, E501``
suppresses the listed codes only.  Codes of other tools are kept but never
match a bgcheck code, so ``# noqa: E501`` does not hide BG101; the one exception
is another linter's code for the very same check (knowledge.SAME_CHECK_CODES:
``# noqa: RUF006`` on a dangling task also silences BG602).
"""

from __future__ import annotations

import enum
import io
import os
import re
import sys
import tokenize
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Optional, Sequence, Union

from bgcheck.knowledge import SAME_CHECK_CODES, LazyPattern
from bgcheck.load.files import PathPatterns
from bgcheck.rules.catalog import former_codes

__all__ = ["ALL", "DIRECTIVE", "Directive", "listed_directives", "LISTED_CODE", "malformed_noqa", "malformed_noqa_warning", "NoqaCodes", "ignored_by", "ignored_codes", "is_suppressed", "parse_noqa", "per_file_ignores", "suppressing_code"]


class _All(enum.Enum):
    """Type of the `ALL` sentinel (an enum member: a picklable singleton)."""

    ALL = "ALL"

    def __contains__(self, code: object) -> bool:
        # Behaves like a set of every code, so `code in codes` works for both kinds.
        return True

    def __repr__(self) -> str:
        return "ALL"


ALL = _All.ALL
"""A bare ``# noqa``: every code on the line is suppressed."""

NoqaCodes = Union[frozenset[str], Literal[_All.ALL]]

_HAS_NOQA = LazyPattern("noqa", re.IGNORECASE)
# "#", optional spaces, the word "noqa", then an optional colon starting a
# code list.  Searched anywhere in a comment: "# type: ignore  # noqa: BG101".
DIRECTIVE = LazyPattern(r"#\s*noqa\b(?P<colon>\s*:)?", re.IGNORECASE)
# One code of the list (letters then digits), after commas and/or spaces.
LISTED_CODE = LazyPattern(r"[\s,]*([A-Z]+[0-9]+)(?!\w)", re.IGNORECASE)


def parse_noqa(source: str) -> dict[int, NoqaCodes]:
    """Map 1-based line number -> codes suppressed on that line, from comments only.

    A ``# noqa:`` whose list holds no code (``# noqa: see below``) suppresses
    nothing: a malformed directive should not silently hide everything.
    """
    if not _HAS_NOQA.search(source):
        return {}  # fast path: most files have no noqa at all
    result: dict[int, NoqaCodes] = {}
    for line, comment in _comments(source):
        for match in DIRECTIVE.finditer(comment):
            codes = _parse_directive(comment, match)
            previous = result.get(line)
            if previous is None:
                result[line] = codes
            elif previous is ALL or codes is ALL:
                result[line] = ALL
            else:
                result[line] = previous | codes
    return result


def is_suppressed(noqa: Mapping[int, NoqaCodes], code: str, lines: Iterable[int]) -> bool:
    """True if any of `lines` (the diagnostic's first line and the first line of its statement) suppresses `code`."""
    return any(suppressing_code(noqa.get(line), code) is not None for line in lines)


def suppressing_code(codes: Optional[NoqaCodes], code: str) -> Optional[str]:
    """The code of ``codes`` (one line's noqa) that suppresses ``code``: the code itself, the code
    its rule split from (``# noqa: BG602`` written before BG605 split off still holds), or another
    linter's code for the same check (``# noqa: RUF006`` for BG602: knowledge.SAME_CHECK_CODES)."""
    if codes is None:
        return None
    code = code.upper()
    chain = (code, *former_codes(code), *SAME_CHECK_CODES.get(code, ()))
    return next((c for c in chain if c in codes), None)  # ALL contains every code


def _parse_directive(comment: str, match: re.Match[str]) -> NoqaCodes:
    if match.group("colon") is None:
        # ``# noqa BG101``, the colon forgotten: malformed, it suppresses nothing (as in ruff,
        # which ignores it with a warning: see malformed_noqa); a bare ``# noqa`` suppresses all.
        return frozenset() if _CODES_WITHOUT_COLON.match(comment, match.end()) else ALL
    codes = []
    pos = match.end()
    # The list ends at the first word that is not a code ("BG101 because ...").
    while (code := LISTED_CODE.match(comment, pos)) is not None:
        codes.append(code.group(1).upper())
        pos = code.end()
    return frozenset(codes)


# After "noqa" with no colon: blanks, then a code ("# noqa BG101", "# noqa BG101, E501").
_CODES_WITHOUT_COLON = LazyPattern(r"[ \t]+[A-Z]+[0-9]+(?!\w)", re.IGNORECASE)
# The same list naming a code of ours: only then is the directive bgcheck's to warn of. ``# noqa
# F401`` is another linter's (flake8 reads it as a blanket noqa), and it suppresses nothing here.
_OUR_CODES_WITHOUT_COLON = LazyPattern(r"[ \t]+(?:[A-Z]+[0-9]+[ \t]*,?[ \t]*)*?BG[0-9]+(?!\w)", re.IGNORECASE)
MISSING_COLON = "expected `:` followed by a comma-separated list of codes (e.g., `# noqa: BG101, BG102`)"
MISSING_CODES = "expected a comma-separated list of codes (e.g., `# noqa: BG101, BG102`)"


def _directive_comments(source: str) -> list:
    """The comment tokens of a source that may hold a directive; none when the text has no
    ``noqa`` at all or does not tokenize (such a file is a BG000 anyway)."""
    if not _HAS_NOQA.search(source):
        return []
    try:
        return _noqa_comment_tokens(source)
    except (tokenize.TokenError, SyntaxError):
        return []


def malformed_noqa(source: str) -> list[tuple[int, str]]:
    """(line, what is wrong) of each malformed directive, in comments: ``# noqa BG101`` (no colon:
    it suppresses nothing; ``# noqa F401``, naming only other linters' codes, is theirs to warn of) and ``# noqa:`` with no code after it (nothing either), as ruff warns
    of them. A file that does not tokenize is read as ``parse_noqa`` reads it."""
    if not _HAS_NOQA.search(source):
        return []
    found = []
    for line, comment in _comments(source):
        for match in DIRECTIVE.finditer(comment):
            if match.group("colon") is None:
                if _OUR_CODES_WITHOUT_COLON.match(comment, match.end()):
                    found.append((line, MISSING_COLON))
            elif LISTED_CODE.match(comment, match.end()) is None:
                found.append((line, MISSING_CODES))
    return found


def malformed_noqa_warning(display: str, line: int, problem: str) -> str:
    """ruff's words for a malformed directive (``warning: Invalid `# noqa` directive on ...``)."""
    return f"Invalid `# noqa` directive on {display}:{line}: {problem}."


def _noqa_comment_tokens(source: str) -> list[tokenize.TokenInfo]:
    """The comment tokens of `source` that mention noqa: tokenized, so that "# noqa" inside a
    string literal is not taken for a comment. Raises tokenize.TokenError or SyntaxError (an
    IndentationError) for a file that does not tokenize."""
    return [
        tok
        # newline=None: a lone "\r" ends a line too, as it does for Python
        for tok in tokenize.generate_tokens(io.StringIO(source, newline=None).readline)
        if tok.type == tokenize.COMMENT and _HAS_NOQA.search(tok.string)
    ]


def _comments(source: str) -> Iterable[tuple[int, str]]:
    """(line, text) of the comments in `source` that mention noqa (or of their part from the
    first directive on: the same directives)."""
    found = _directive_lines(source)
    if _TOKENIZE_IS_PYTHON and "\r" not in source and _all_in_comments(source, found):
        return [(number, text) for number, _offset, text in found]
    try:
        return [(tok.start[0], tok.string) for tok in _noqa_comment_tokens(source)]
    except (tokenize.TokenError, SyntaxError):
        # A broken file still gets its suppressions: take text from the first
        # "#" before "noqa" on each line (strings may fool this; it is a fallback).
        return [(number, text) for number, _offset, text in found]


def _directive_lines(source: str) -> list[tuple[int, int, str]]:
    """(line, offset in ``source``, rest of the line) of the first directive of each line that
    holds one, read off the text alone (strings may fool it: see _all_in_comments)."""
    found = []
    offset = 0
    for number, text in enumerate(re.split(r"\r\n|\r|\n", source), start=1):
        match = DIRECTIVE.search(text) if _HAS_NOQA.search(text) else None
        if match is not None:
            found.append((number, offset + match.start(), text[match.start() :]))
        offset += len(text) + 1  # the offsets are used only where every line ends with "\n" alone
    return found


# Speed: tokenizing costs about a tenth of libcst's parse, and SQLAlchemy has a noqa in most
# files. Where the "#" of every line's first directive is in a comment, the text from it to the
# end of its line is the comment's (or its end), and tokenize needs not run. Whether a "#" is in
# a comment is decided by skipping the strings before it as tokenize does up to Python 3.11
# (pure Python, regular expressions: these). From 3.12 tokenize is CPython's own tokenizer,
# which reads nested f-strings otherwise, and fast: it always runs there. Anything unusual (a
# string that does not close where tokenize's rules close it, a "\r") is left to tokenize.
_TOKENIZE_IS_PYTHON = sys.version_info < (3, 12)
_QUOTE_OR_HASH = LazyPattern(r"""['"#]""")
_STRING_BODY = {  # after the opening quote(s), up to and with the closing one(s)
    "'''": re.compile(r"(?:[^\\']|\\.|'(?!''))*'''", re.DOTALL),
    '"""': re.compile(r'(?:[^\\"]|\\.|"(?!""))*"""', re.DOTALL),
    "'": re.compile(r"(?:[^\\'\n]|\\.)*'"),
    '"': re.compile(r'(?:[^\\"\n]|\\.)*"'),
}


def _all_in_comments(source: str, found: list[tuple[int, int, str]]) -> bool:
    """Is the "#" at each offset of ``found`` (in order) in a comment, as tokenize (Python up
    to 3.11) reads ``source``? False also when unsure. Scans only up to the last one."""
    targets = [offset for _number, offset, _text in found]
    i, position = 0, 0
    while i < len(targets):
        start = _QUOTE_OR_HASH.search(source, position).start()  # found: targets[i] is a "#"
        char = source[start]
        if char == "#":  # a comment, to the end of its line
            end = source.find("\n", start)
            end = len(source) if end < 0 else end
            while i < len(targets) and targets[i] < end:
                i += 1
        else:
            quote = char * 3 if source.startswith(char * 3, start) else char
            body = _STRING_BODY[quote].match(source, start + len(quote))
            if body is None or targets[i] < body.end():
                return False  # not closed as tokenize closes it, or the "#" is in the string
            end = body.end()
        position = end
    return True


@dataclass(frozen=True)
class Directive:
    """One ``# noqa: CODES`` with where its parts are: a 1-based line, 0-based columns in it."""

    line: int
    start: int  # the "#" of "# noqa"
    end: int  # just after the last code of the list
    codes: tuple[tuple[str, int, int], ...]  # (CODE, start, end) of each code listed
    comment_start: int  # the "#" that starts the comment holding the directive
    comment_end: int  # the end of that comment


def listed_directives(source: str) -> list[Directive]:
    """Every ``# noqa:`` with a code list, in comments (a bare ``# noqa`` has no list to check).
    A file that does not tokenize gives none: it is a BG000 anyway."""
    tokens = _directive_comments(source)
    found = []
    for tok in tokens:
        line, column = tok.start
        for match in DIRECTIVE.finditer(tok.string):
            if match.group("colon") is None:
                continue
            codes, pos = [], match.end()
            while (code := LISTED_CODE.match(tok.string, pos)) is not None:
                codes.append((code.group(1).upper(), column + code.start(1), column + code.end(1)))
                pos = code.end()
            if codes:
                found.append(Directive(line, column + match.start(), column + pos, tuple(codes), column, column + len(tok.string)))
    return found


# ---------------------------------------------------------------------------
# adding a directive (the language server's "suppress" action, --add-noqa)

_LINE_BREAK = LazyPattern(r"\r\n|\r|\n")


def noqa_insertion(text: str, line: int, codes: Sequence[str], reason: str = "") -> Optional[tuple[int, int, str]]:
    """How to suppress ``codes`` on ``line`` (0-based) of ``text``: (start, end, new text), columns
    in the line's characters. The codes not listed yet join the line's ``# noqa:`` list, else the
    line's trailing blanks become ``  # noqa: CODES`` and ``reason`` after them; a directive whose
    colon was forgotten (``# noqa BG101``, which suppresses nothing) gets it. None when every
    code is suppressed there already (a bare ``# noqa`` suppresses all), or when no comment can
    end the line (it ends inside a multi-line string, or with a backslash)."""
    lines = _LINE_BREAK.split(text)
    if not 0 <= line < len(lines):
        return None
    line_text = lines[line]
    comments, ends_inside_token = _line_comments(text, line + 1, line_text)
    for column, comment in comments:
        for match in DIRECTIVE.finditer(comment):
            if _parse_directive(comment, match) is ALL:
                return None  # a bare ``# noqa`` suppresses every code already
            listed, insert_at, pos = [], match.end(), match.end()
            while (found := LISTED_CODE.match(comment, pos)) is not None:
                listed.append(found.group(1).upper())
                insert_at = pos = found.end()
            new = [code for code in dict.fromkeys(codes) if code.upper() not in listed]
            added = ((", " if listed else " ") + ", ".join(new)) if new else ""
            if match.group("colon") is None:
                # ``# noqa BG101``, its colon forgotten, suppresses nothing: it gets its colon (and the codes)
                return column + match.end(), column + insert_at, ":" + comment[match.end():insert_at] + added
            if not new:
                return None
            return column + insert_at, column + insert_at, added
    if ends_inside_token:
        return None
    content = line_text.rstrip()
    if not comments and content.endswith("\\"):
        return None
    directive = f"# noqa: {', '.join(dict.fromkeys(codes))}" + (f" {reason}" if reason else "")
    return len(content), len(line_text), f"  {directive}" if content else directive


def _line_comments(text: str, number: int, line_text: str) -> tuple[list[tuple[int, str]], bool]:
    """([(0-based column, comment)], does the line end inside a multi-line token) for 1-based line ``number``."""
    comments: list[tuple[int, str]] = []
    inside = False
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.start[0] > number:
                break
            if token.type == tokenize.COMMENT and token.start[0] == number:
                comments.append((token.start[1], token.string))
            elif token.start[0] <= number < token.end[0] and token.type not in (tokenize.NL, tokenize.NEWLINE):
                inside = True
    except (tokenize.TokenError, SyntaxError):
        # A broken file (BG000): take the text from the first "#" on the line (strings may fool this).
        hash_at = line_text.find("#")
        comments = [(hash_at, line_text[hash_at:])] if hash_at >= 0 else []
        inside = False
    return comments, inside


# ---------------------------------------------------------------------------
# per-file ignores (``per-file-ignores`` in the configuration)


def per_file_ignores(config) -> list[tuple[PathPatterns, tuple[str, ...]]]:
    """The configuration's per-file ignores: (patterns, code prefixes) pairs."""
    return [(PathPatterns([pattern]), codes) for pattern, codes in config.per_file_ignores]


def ignored_by(code: str, prefixes: Sequence[str]) -> bool:
    """Whether a prefix names ``code`` or the code its rule split from (an ``ignore`` written before
    the split still holds)."""
    return any(c.startswith(prefix) for c in (code, *former_codes(code)) for prefix in prefixes)


def ignored_codes(path: Path, root: Path, per_file_ignores) -> tuple[str, ...]:
    if not per_file_ignores:
        return ()
    try:
        rel = Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        rel = Path(path).as_posix()
    codes: list[str] = []
    for patterns, pattern_codes in per_file_ignores:
        if patterns.matches(rel):
            codes.extend(pattern_codes)
    return tuple(codes)
