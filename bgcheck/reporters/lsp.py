"""``--format lsp``: a JSON array of LSP ``PublishDiagnosticsParams``, one per file.

Positions are 0-based and count UTF-16 code units, as LSP does by default.
The language server (``bgcheck lsp``) builds its diagnostics with the same
function.
"""

from __future__ import annotations

import json
from pathlib import Path

from bgcheck.reporters.sarif import help_uri

SEVERITY = {"error": 1, "warning": 2, "info": 3}


def utf16_column(line_text: str | None, column: int) -> int:
    """A 1-based code-point column as a 0-based UTF-16 offset."""
    if line_text is None:
        return max(column - 1, 0)
    prefix = line_text[: max(column - 1, 0)]
    return len(prefix.encode("utf-16-le")) // 2


def _line(sources: dict, path: str, number: int) -> str | None:
    text = sources.get(path)
    if text is None:
        return None
    lines = text.splitlines()
    return lines[number - 1] if 0 < number <= len(lines) else None


def lsp_range(loc, sources: dict) -> dict:
    return {
        "start": {"line": loc.line - 1, "character": utf16_column(_line(sources, loc.path, loc.line), loc.column)},
        "end": {"line": loc.end_line - 1, "character": utf16_column(_line(sources, loc.path, loc.end_line), loc.end_column)},
    }


def file_uri(path: str) -> str:
    return Path(path).resolve().as_uri()


def lsp_diagnostic(d, sources: dict) -> dict:
    return {
        "range": lsp_range(d.location, sources),
        "severity": SEVERITY[d.severity.value],
        "code": d.code,
        "codeDescription": {"href": help_uri(d.code)},
        "source": "bgcheck",
        "message": d.message,
        "relatedInformation": [
            {"location": {"uri": file_uri(r.path), "range": lsp_range(r, sources)}, "message": r.message or "related"}
            for r in d.related
        ],
    }


def render(result, options) -> str:
    by_file: dict[str, list] = {}
    for d in result.diagnostics:
        by_file.setdefault(d.path, []).append(lsp_diagnostic(d, result.sources))
    document = [{"uri": file_uri(path), "diagnostics": diagnostics} for path, diagnostics in by_file.items()]
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
