"""``--format lsp``: a JSON array of LSP ``PublishDiagnosticsParams``, one per file.

Positions are 0-based and count UTF-16 code units, as LSP does by default.
The language server (``bgcheck lsp``) builds its diagnostics with the same
function.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from bgcheck.report.fingerprint import source_lines
from bgcheck.report.sarif import help_uri

SEVERITY = {"error": 1, "warning": 2, "info": 3}

# Each diagnostic looks up two lines of its file (and of each related file): split a text once.
_lines = lru_cache(maxsize=32)(source_lines)


def utf16_column(line_text: str | None, column: int) -> int:
    """A 1-based code-point column as a 0-based UTF-16 offset."""
    if line_text is None:
        return max(column - 1, 0)
    prefix = line_text[: max(column - 1, 0)]
    return len(prefix.encode("utf-16-le")) // 2


def _source(sources: dict, path: str) -> str | None:
    """The text of ``path``: from ``sources`` (the run's texts, or the editor's), else from disk.

    Related locations often point into files with no finding of their own, which the run does
    not keep; their columns still need the text to count UTF-16 code units."""
    if path in sources or not path:
        return sources.get(path)
    from bgcheck.load.source import decode_source

    try:
        text = decode_source(Path(path).read_bytes())
    except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
        text = None
    sources[path] = text  # read once per file, not once per location
    return text


def _line(sources: dict, path: str, number: int) -> str | None:
    text = _source(sources, path)
    if text is None:
        return None
    lines = _lines(text)
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
    sources = dict(result.sources)  # _source adds the files related locations point into
    for d in result.diagnostics:
        by_file.setdefault(d.path, []).append(lsp_diagnostic(d, sources))
    document = [{"uri": file_uri(path), "diagnostics": diagnostics} for path, diagnostics in by_file.items()]
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
