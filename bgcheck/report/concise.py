"""``--format concise``: one line per finding, ``path:line:col: CODE message``.

No code frames and no notes; the summary line (and ``--statistics`` table) as in ``text``.
"""

from __future__ import annotations

from bgcheck.report import text


def render(result, options) -> str:
    paint = text._Painter(options.color)
    out: list[str] = []
    if not (options.statistics and options.quiet):
        for diagnostic in result.diagnostics:
            out.append(text.header(diagnostic, paint, options.unsafe_fixes))
    if options.statistics:
        out.extend(text._statistics(result, paint, options.unsafe_fixes))
    if not options.quiet:
        out.append(text._summary_line(result))
    return "\n".join(out) + ("\n" if out else "")
