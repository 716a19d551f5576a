"""Phase 2 for one file: every relevant enabled rule in one walk of its CST, then its
``# noqa`` comments. Whatever goes wrong is this file's BG000, never the run's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

from bgcheck.diagnostics import Diagnostic
from bgcheck.load.bg000 import internal_error, too_deep
from bgcheck.load.config import Config
from bgcheck.load.unit import FileChanged, FileUnit
from bgcheck.run.noqa import is_suppressed, parse_noqa
from bgcheck.run.unused_noqa import CODE as UNUSED_NOQA, unused_noqa

if TYPE_CHECKING:  # libcst and the rules are imported when a file is checked: a warm run may check none
    from bgcheck.model.project import ProjectIndex
    from bgcheck.rules.base import Rule

# Phase 1 keeps each file's CST for phase 2 while the kept source stays under
# this budget (a CST costs tens of bytes per source byte); past it, phase 2
# parses again the files it needs. Worker processes never send CSTs back.
# Measured on the benchmark corpus (636k lines, --jobs 1): keeping 8 Mi chars
# peaked at 493 MiB, keeping none at 286 MiB for 5% more CPU; 2 Mi chars keeps
# the peak under 400 MiB for about 4% more CPU than 8 Mi.
KEEP_CST_BUDGET_CHARS = 2 * 1024 * 1024  # about 50 MB of CST


def check_unit(unit: FileUnit, index: ProjectIndex, config: Config, rule_classes: Sequence[type[Rule]]) -> list[Diagnostic]:
    """Phase 2 for one file. Whatever goes wrong is this file's BG000, never the run's."""
    try:
        return _check_unit(unit, index, config, rule_classes)
    except FileChanged:  # a file read on demand (a restored index reads summaries so) changed: the run starts again
        raise
    except Exception as exc:
        return [internal_error(unit.display, "checking", exc)]
    except MemoryError:
        return [internal_error(unit.display, "checking", MemoryError("out of memory"))]


def _check_unit(unit: FileUnit, index: ProjectIndex, config: Config, rule_classes: Sequence[type[Rule]]) -> list[Diagnostic]:
    from bgcheck.rules.checker import check_module
    from bgcheck.syntax.parse import parse_module

    rules = [rule_class(config) for rule_class in rule_classes]
    relevant = [rule for rule in rules if rule.is_relevant(unit)]
    unused_noqa_enabled = any(rule.code == UNUSED_NOQA for rule in rules)
    if not relevant and not unused_noqa_enabled:
        return []
    found = []
    if relevant:
        module = unit.module
        if module is None:
            module = parse_module(unit.text)
        try:
            found = check_module(unit.display, module, unit.summary, index, config, relevant)
        except RecursionError:
            return [too_deep(unit.display, unit.text, "analyse")]
    noqa = parse_noqa(unit.text)
    kept = [d for d, statement_line in found if not is_suppressed(noqa, d.code, (d.location.line, statement_line))]
    if unused_noqa_enabled and noqa:
        silenced = [(d, line) for d, line in found if is_suppressed(noqa, d.code, (d.location.line, line))]
        kept += unused_noqa(unit.display, unit.text, noqa, silenced, frozenset(rule.code for rule in rules))
    return kept


def within_cst_budget(units: Iterable[FileUnit], budget: int = KEEP_CST_BUDGET_CHARS) -> list[FileUnit]:
    """``units`` (taken one by one: a generator loads each file in turn), each keeping its CST
    while the source kept so far is within ``budget``; past it a unit drops its CST and phase 2
    parses that file again. A file whose summary holds nothing a rule walks for (no function,
    class, call, handler or ``__main__`` block: phase 2 checks it with no rule) drops its CST at
    once and does not count."""
    from bgcheck.rules.relevance import nothing_to_walk

    kept = 0
    out = []
    for unit in units:
        if unit.module is not None and unit.summary is not None and nothing_to_walk(unit.summary):
            unit.module = None
        if unit.module is not None:
            kept += len(unit.text)
            if kept > budget:
                unit.module = None
        out.append(unit)
    return out
