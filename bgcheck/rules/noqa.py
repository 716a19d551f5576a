"""BG0xx: bgcheck's own hygiene. BG001 reports ``# noqa: BGxxx`` codes that silence nothing.

The rule walks no node: which codes a ``# noqa`` silenced is known only once the file's findings
are in, so ``bgcheck.run.unused_noqa`` does the work after phase 2 (when BG001 is enabled).
"""

from __future__ import annotations

from bgcheck.diagnostics import Severity
from bgcheck.rules.base import Rule, register


@register
class UnusedNoqa(Rule):
    code = "BG001"
    name = "unused-noqa"
    severity = Severity.WARNING
    summary = "A `# noqa: BGxxx` code silences nothing on its line (off unless selected by its code, as ruff's RUF100)."
    fixable = "safe"

    def is_relevant(self, unit) -> bool:
        return False  # nothing to walk: see bgcheck.run.unused_noqa
