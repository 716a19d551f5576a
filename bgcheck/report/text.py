"""``--format text``: ``path:line:col: CODE message``, explanations, code frames, a summary.

Code frames are highlighted with pygments when colour is on, with a marker
under the flagged span. An explanation (what a stop does to this code, and how to
fix it) is wrapped under its finding's notes.
"""

from __future__ import annotations

from collections import Counter

from bgcheck.report.fingerprint import source_lines
from bgcheck.diagnostics import fix_counts, is_applicable
from bgcheck.report.counts import counts, plural

_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_REMOVED = "\x1b[31m"
_ADDED = "\x1b[32m"
_SEVERITY_COLOR = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "info": "\x1b[1;34m"}
_CONTEXT_LINES = 1
_WIDTH = 100  # explanations are wrapped to this many columns
_WHY = "  why: "


def render(result, options) -> str:
    out: list[str] = []
    paint = _Painter(options.color)
    for diagnostic in () if options.statistics and options.quiet else result.diagnostics:  # -q --statistics: the table only
        loc = diagnostic.location
        out.append(header(diagnostic, paint, options.unsafe_fixes))
        for related in diagnostic.related:
            out.append(f"  {paint(_DIM, 'note:')} {related.path}:{related.line}:{related.column}: {related.message}")
        if options.show_explanations and diagnostic.explanation:
            out.extend(explanation_lines(diagnostic.explanation, paint))
        source = result.sources.get(loc.path) if options.show_source else None
        if source is not None:
            out.extend(_frame(source, loc, options.color))
        fix = fix_diff_lines(diagnostic, result.sources.get(loc.path), paint, options.unsafe_fixes) if options.show_fixes else []
        out.extend(fix)
        if source is not None or fix or (options.show_explanations and diagnostic.explanation):
            out.append("")
    if options.statistics:
        out.extend(_statistics(result, paint, options.unsafe_fixes))
    if not options.quiet:
        out.extend(fix_lines(result, options))
        out.append(_summary_line(result))
    return "\n".join(out) + ("\n" if out else "")


def header(diagnostic, paint, unsafe_fixes: bool = False) -> str:
    """``path:line:col: CODE message``, with ``[*]`` after the code when this run's settings can fix it (as ruff)."""
    loc = diagnostic.location
    mark = " [*]" if is_applicable(diagnostic, unsafe_fixes) else ""
    return (
        f"{paint(_BOLD, loc.path)}:{loc.line}:{loc.column}: "
        f"{paint(_SEVERITY_COLOR[diagnostic.severity.value], diagnostic.code)}{mark} {diagnostic.message}"
    )


def explanation_lines(explanation: str, paint) -> list[str]:
    """The explanation wrapped to the width, under a ``why:`` label."""
    import textwrap  # only when a finding is shown: start-up

    lines = textwrap.wrap(
        explanation, _WIDTH, initial_indent=_WHY, subsequent_indent=" " * len(_WHY), break_long_words=False, break_on_hyphens=False
    )
    if lines:
        lines[0] = lines[0].replace(_WHY, f"  {paint(_DIM, 'why:')} ", 1)
    return lines


class _Painter:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, style: str, text: str) -> str:
        return f"{style}{text}{_RESET}" if self.enabled else text


def _frame(source: str, loc, color: bool) -> list[str]:
    lines = source_lines(source)
    if not lines:
        return []
    first = max(1, loc.line - _CONTEXT_LINES)
    last = min(len(lines), max(loc.line, min(loc.end_line, loc.line + 3)) + _CONTEXT_LINES)
    shown = [line.expandtabs(4) for line in lines[first - 1 : last]]
    if color:
        shown = _highlight(shown)
    width = len(str(last))
    gutter = " " * width + " |"
    frame = [gutter]
    for number, text in zip(range(first, last + 1), shown):
        frame.append(f"{number:>{width}} | {text}".rstrip())
        if number == loc.line:
            raw = lines[number - 1]
            start = len(raw[: loc.column - 1].expandtabs(4))
            end_col = loc.end_column if loc.end_line == loc.line else len(raw) + 1
            end = len(raw[: max(end_col - 1, loc.column)].expandtabs(4))
            marker = " " * start + "^" * max(1, end - start)
            frame.append(f"{gutter} {_SEVERITY_COLOR['error'] + marker + _RESET if color else marker}")
    frame.append(gutter)
    return frame


def fix_diff_lines(diagnostic, source, paint, unsafe_fixes: bool) -> list[str]:
    """--show-fixes: under a finding this run can fix, what its own fix does (its message and
    applicability) and the lines it changes, as the hunks of a unified diff (no context lines)."""
    if source is None or not is_applicable(diagnostic, unsafe_fixes):
        return []
    import difflib  # only with --show-fixes: start-up

    from bgcheck.run.fixes import apply_pass

    fixed, applied = apply_pass(source, [diagnostic], unsafe=True)
    if not applied or fixed == source:
        return []
    fix = diagnostic.fix
    lines = [f"  {paint(_DIM, 'fix:')} {fix.message} ({fix.applicability.value})"]
    hunks = difflib.unified_diff(source.splitlines(), fixed.splitlines(), n=0, lineterm="")
    for line in list(hunks)[2:]:  # not the ---/+++ file header: the finding names the file
        style = {"-": _REMOVED, "+": _ADDED, "@": _DIM}[line[0]]
        lines.append(f"    {paint(style, line)}")
    return lines


def _highlight(lines: list[str]) -> list[str]:
    from pygments import highlight
    from pygments.formatters import TerminalFormatter
    from pygments.lexers import PythonLexer

    rendered = highlight("\n".join(lines) + "\n", PythonLexer(stripnl=False, ensurenl=False), TerminalFormatter())
    out = rendered.rstrip("\n").split("\n")
    return out if len(out) == len(lines) else lines  # never misalign the frame


def _statistics(result, paint, unsafe_fixes: bool = False) -> list[str]:
    """Findings by rule, most first; ``[*]`` before the name when this run's settings can fix
    some of them (ruff's fixable column)."""
    by_code = Counter(d.code for d in result.diagnostics)
    names = {d.code: (d.name, d.severity.value) for d in result.diagnostics}
    fixable = {d.code for d in result.diagnostics if is_applicable(d, unsafe_fixes)}
    rows = []
    for code, n in sorted(by_code.items(), key=lambda item: (-item[1], item[0])):
        name, severity = names[code]
        mark = "[*]" if code in fixable else "   "
        rows.append(f"{n:>5}  {paint(_SEVERITY_COLOR[severity], code)}  {mark} {name}")
    return rows


def fix_lines(result, options) -> list[str]:
    """What was fixed, what --fix would fix, and how many more --unsafe-fixes would (before the summary line)."""
    fixable, hidden = fix_counts(result.diagnostics, options.unsafe_fixes)
    lines = []
    if options.fix_mode:
        if getattr(result, "fixed", 0):
            lines.append(f"Fixed {plural(result.fixed, 'problem')}.")
    elif fixable:
        option = "--fix --unsafe-fixes" if options.unsafe_fixes else "--fix"
        lines.append(f"[*] {fixable} fixable with `{option}`.")
    if hidden:
        lines.append(f"{plural(hidden, 'more fix', 'more fixes')} available with `--unsafe-fixes` (they can change behaviour: see each rule's page).")
    return lines


def _summary_line(result) -> str:
    c = counts(result)
    checked = plural(c["files_checked"], "file") + " checked"
    if not c["total"]:
        return f"All checks passed ({checked})."
    parts = [plural(c[key], word) for key, word in (("errors", "error"), ("warnings", "warning"), ("infos", "info")) if c[key]]
    return f"Found {plural(c['total'], 'problem')} ({', '.join(parts)}); {checked}."
