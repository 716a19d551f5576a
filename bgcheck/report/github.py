"""``--format github``: GitHub Actions workflow commands (annotations on the pull request)."""

from __future__ import annotations

_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(result, options) -> str:
    lines = []
    for d in result.diagnostics:
        loc = d.location
        properties = ",".join(
            [
                f"file={escape_property(loc.path)}",
                f"line={loc.line}",
                f"col={loc.column}",
                f"endLine={loc.end_line}",
                f"endColumn={loc.end_column}",
                f"title={escape_property(f'{d.code} {d.name}')}",
            ]
        )
        lines.append(f"::{_COMMAND[d.severity.value]} {properties}::{escape_data(d.message)}")
    return "\n".join(lines) + ("\n" if lines else "")
