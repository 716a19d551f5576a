"""Phase 2 for one file: every relevant enabled rule in one walk of its CST, then its
``# noqa`` comments. Whatever goes wrong is this file's BG000, never the run's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from bgcheck.diagnostics import Diagnostic
from bgcheck.load.bg000 import bg000, internal_error, syntax_error, too_deep
from bgcheck.load.guards import parse_hazard
from bgcheck.load.config import Config
from bgcheck.load.unit import FileChanged, FileUnit
from bgcheck.run.noqa import is_suppressed, parse_noqa
from bgcheck.run.unused_noqa import CODE as UNUSED_NOQA, unused_noqa

if TYPE_CHECKING:  # libcst and the rules are imported when a file is checked: a warm run may check none
    from bgcheck.model.project import ProjectIndex
    from bgcheck.rules.base import Rule

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
    rules = [rule_class(config) for rule_class in rule_classes]
    relevant = [rule for rule in rules if rule.is_relevant(unit)]
    unused_noqa_enabled = any(rule.code == UNUSED_NOQA for rule in rules)
    if not relevant and not unused_noqa_enabled:
        return []
    found = []
    if relevant:  # libcst is imported here, for the first file a rule reads
        import libcst as cst

        from bgcheck.rules.checker import check_module
        from bgcheck.syntax.parse import parse_module

        module = unit.module  # the language server's, kept from phase 1
        if module is None:
            hazard = parse_hazard(unit.text)  # libcst's parse time grows with the square of the nesting
            if hazard is not None:
                return [bg000(unit.display, f"file not analysed: {hazard[1]}", hazard[0])]
            try:
                module = parse_module(unit.text)
            except cst.ParserSyntaxError as exc:  # CPython parsed it (phase 1): a limit of libcst
                return [syntax_error(unit.display, unit.text, exc)]
        try:
            found = check_module(unit.display, module, unit.summary, index, config, relevant, unit.text)
        except RecursionError:
            return [too_deep(unit.display, unit.text, "analyse")]
    silences = [d for d, _line in found if d.silence]  # not findings: no noqa applies to them, nor uses one
    found = [(d, line) for d, line in found if not d.silence]
    noqa = parse_noqa(unit.text)
    kept = [d for d, statement_line in found if not is_suppressed(noqa, d.code, (d.location.line, statement_line))] + silences
    if unused_noqa_enabled and noqa:
        silenced = [(d, line) for d, line in found if is_suppressed(noqa, d.code, (d.location.line, line))]
        kept += unused_noqa(unit.display, unit.text, noqa, silenced, frozenset(rule.code for rule in rules))
    return kept
