"""``--format json``: a public interface (documented in the README); keep it stable.

    {"version": "<bgcheck version>",
     "diagnostics": [{"code", "name", "severity", "message", "path", "line",
                      "column", "end_line", "end_column", "related": [...],
                      "explanation"}, ...],
     "summary": {"files_checked", "total", "errors", "warnings", "infos", "by_code": {code: n}}}

Lines and columns are 1-based; end_column is exclusive. ``message`` is the short message
(at most 120 characters); ``explanation`` says what a stop or a second replica does to
this code and how to fix it ("" for a file not analysed).
"""

from __future__ import annotations

import json

from bgcheck import __version__
from bgcheck.report.counts import counts


def render(result, options) -> str:
    document = {
        "version": __version__,
        "diagnostics": [d.to_dict() for d in result.diagnostics],
        "summary": counts(result),
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
