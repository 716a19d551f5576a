"""The diagnostic: what every rule produces and every reporter prints.

Plain, picklable data: no CST nodes, so diagnostics can cross process
boundaries and be cached.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


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


@dataclass(frozen=True)
class Diagnostic:
    code: str
    name: str
    severity: Severity
    message: str
    location: Location
    related: tuple[Location, ...] = field(default=())

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
        }


# BG000 is not a rule: it is how the engine reports a file it could not analyse.
BG000_CODE = "BG000"
BG000_NAME = "file-not-analysed"
BG000_SUMMARY = (
    "A file could not be analysed (syntax error, undecodable bytes, too large or too deeply nested, "
    "valid Python libcst cannot parse, an internal error)."
)
