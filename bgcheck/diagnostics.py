"""The diagnostic: what every rule produces and every reporter prints.

Plain, picklable data: no CST nodes, so diagnostics can cross process
boundaries and be cached.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Iterable, Optional


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(frozen=True, order=True)
class Location:
    """A span in a file. Lines and columns are 1-based; end column is exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    message: str = ""


class Applicability(str, enum.Enum):
    """Whether ``--fix`` applies a fix (safe) or only ``--fix --unsafe-fixes`` does (unsafe: the
    fixed code can behave differently, e.g. an exception it used to catch now propagates)."""

    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True, order=True)
class Edit:
    """Replace the text from (line, column) to (end_line, end_column) with ``content``: an
    insertion when both ends are equal, a deletion when ``content`` is empty. Lines and columns
    are 1-based and count code points, as in ``Location``; the end is exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int
    content: str

    @property
    def start(self) -> tuple[int, int]:
        return (self.line, self.column)

    @property
    def end(self) -> tuple[int, int]:
        return (self.end_line, self.end_column)

    def to_dict(self) -> dict:
        """ruff's JSON shape of an edit (``row``/``column``, 1-based)."""
        return {
            "content": self.content,
            "location": {"row": self.line, "column": self.column},
            "end_location": {"row": self.end_line, "column": self.end_column},
        }


@dataclass(frozen=True)
class Fix:
    """A change that resolves a finding, in the finding's own file."""

    applicability: Applicability
    message: str  # what the fix does, imperative: "Catch `Exception` instead"
    edits: tuple[Edit, ...]

    @property
    def title(self) -> str:
        return self.message

    def to_dict(self) -> dict:
        return {
            "applicability": self.applicability.value,
            "message": self.message,
            "edits": [edit.to_dict() for edit in self.edits],
        }


@dataclass(frozen=True)
class Diagnostic:
    code: str
    name: str
    severity: Severity
    message: str
    location: Location
    related: tuple[Location, ...] = field(default=())
    fix: Optional[Fix] = None
    # The short ``message`` says what is wrong here (at most MAX_MESSAGE characters); the
    # explanation says what a stop or a second replica does to this code, and how to fix it.
    explanation: str = ""
    # Not a finding: where a rule matched and a fact of the model kept it silent (``message`` says
    # which), shown only under ``--verbose``; the engine keeps these apart from the findings.
    silence: bool = False

    @property
    def path(self) -> str:
        return self.location.path

    def sort_key(self) -> tuple:
        loc = self.location
        return (loc.path, loc.line, loc.column, self.code, self.message)

    def to_dict(self) -> dict:
        """The public JSON shape of one diagnostic (documented in the README)."""
        loc = self.location
        return {
            "code": self.code,
            "name": self.name,
            "severity": self.severity.value,
            "message": self.message,
            "path": loc.path,
            "line": loc.line,
            "column": loc.column,
            "end_line": loc.end_line,
            "end_column": loc.end_column,
            "related": [
                {
                    "path": r.path,
                    "line": r.line,
                    "column": r.column,
                    "end_line": r.end_line,
                    "end_column": r.end_column,
                    "message": r.message,
                }
                for r in self.related
            ],
            "fix": self.fix.to_dict() if self.fix is not None else None,
            "explanation": self.explanation,
        }


def is_applicable(diagnostic: Diagnostic, unsafe: bool) -> bool:
    """Does this run apply the finding's fix (safe ones always, unsafe ones with --unsafe-fixes)?"""
    fix = diagnostic.fix
    return fix is not None and bool(fix.edits) and (unsafe or fix.applicability is Applicability.SAFE)


def fix_counts(diagnostics: Iterable[Diagnostic], unsafe: bool) -> tuple[int, int]:
    """(findings this run's settings can fix, findings only --unsafe-fixes would fix)."""
    fixable = hidden = 0
    for d in diagnostics:
        if is_applicable(d, unsafe):
            fixable += 1
        elif is_applicable(d, True):
            hidden += 1
    return fixable, hidden


# Codes that run only when selected by their own code (or a prefix longer than "BG": BG0, BG00),
# in --select, select or extend-select, as ruff's RUF100: ``ALL`` and the default leave them off.
EXPLICIT_ONLY_CODES = frozenset({"BG001"})


# A finding's message fits one line next to its location, as other linters' do.
MAX_MESSAGE = 120


def short_name(name: str, limit: int = 40) -> str:
    """A name as a short message shows it: a dotted name's last part, and at most ``limit``
    characters (the full name goes in the explanation)."""
    last = name.rsplit(".", 1)[-1] if "." in name and " " not in name else name
    return last if len(last) <= limit else last[: limit - 1] + "\u2026"


def clip(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters (a quoted expression in a short message)."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


# BG000 is not a rule: it is how the engine reports a file it could not analyse.
BG000_CODE = "BG000"
BG000_NAME = "file-not-analysed"
BG000_SUMMARY = (
    "A file could not be analysed (syntax error, undecodable bytes, too large or too deeply nested, "
    "valid Python libcst cannot parse, an internal error)."
)
