"""``bgcheck jobs``: the job inventory as a table that fits 100 columns.

One row per job with the columns that scan well side by side (job, kind, framework,
schedule), each capped in width; under it, indented, where the job is declared, its limits
and locks, how it was found, and the full text of any cell the row had to cut.
"""

from __future__ import annotations


WIDTH = 100
_GAP = "  "
_HEADER = ("JOB", "KIND", "FRAMEWORK", "SCHEDULE")
# The most each column takes; SCHEDULE gets what the others leave of the width.
_CAPS = (38, 15, 19)
_DETAIL = "    "  # indent of the lines under a row


def render_jobs_table(rows: list[dict]) -> str:
    """``rows``: per job, ``job``, ``kind``, ``framework``, ``schedule`` (cells), ``location``,
    ``limits``, ``locks`` and ``via`` (text, "" when there is none)."""
    if not rows:
        return "No background jobs found."
    cells = [[row["job"], row["kind"], row["framework"], row["schedule"]] for row in rows]
    widths = [min(cap, max(len(h), *(len(c[i]) for c in cells))) for i, (h, cap) in enumerate(zip(_HEADER, _CAPS))]
    widths.append(max(len(_HEADER[-1]), WIDTH - sum(widths) - len(_GAP) * len(widths)))
    lines = [_line(_HEADER, widths)]
    for row, row_cells in zip(rows, cells):
        shown = [_cut(cell, width, keep_end=(i == 0)) for i, (cell, width) in enumerate(zip(row_cells, widths))]
        lines.append(_line(shown, widths))
        lines.extend(_details(row, row_cells, shown))
    lines.append(f"{len(rows)} job{'s' if len(rows) != 1 else ''}.")
    return "\n".join(lines)


def _line(cells, widths) -> str:
    return _GAP.join(cell.ljust(width) for cell, width in zip(cells, widths)).rstrip()


def _cut(text: str, width: int, keep_end: bool = False) -> str:
    """``text`` in ``width`` characters; a job's dotted name keeps its end (the function)."""
    if len(text) <= width:
        return text
    return "\u2026" + text[-(width - 1) :] if keep_end else text[: width - 1] + "\u2026"


def _details(row: dict, cells: list[str], shown: list[str]) -> list[str]:
    parts = [row["location"], row["limits"], f"locks: {row['locks']}" if row["locks"] else "", row["via"]]
    for header, cell, cut in zip(_HEADER, cells, shown):
        if cell != cut:
            parts.append(f"{header.lower()}: {cell}")
    import textwrap  # start-up

    return textwrap.wrap(
        " \u00b7 ".join(part for part in parts if part), WIDTH, initial_indent=_DETAIL, subsequent_indent=_DETAIL + "  ", break_on_hyphens=False
    )
