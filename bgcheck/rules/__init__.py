"""The rules. Importing this package registers every rule in ``REGISTRY``."""

from bgcheck.rules import cancellation  # noqa: F401  (registers BG101-BG104)
from bgcheck.rules import endings  # noqa: F401  (registers BG201-BG205)
from bgcheck.rules import queues  # noqa: F401  (registers BG301-BG304)
from bgcheck.rules import shutdown  # noqa: F401  (registers BG401-BG406)
from bgcheck.rules import locks  # noqa: F401  (registers BG501-BG503)
from bgcheck.rules import money  # noqa: F401  (registers BG601-BG604)
from bgcheck.diagnostics import BG000_CODE, BG000_NAME, BG000_SUMMARY, Severity
from bgcheck.rules.base import REGISTRY, Rule

__all__ = ["REGISTRY", "Rule", "all_rules", "rule_by_code_or_name", "rule_table"]


def all_rules() -> list[type[Rule]]:
    return [REGISTRY[code] for code in sorted(REGISTRY)]


def rule_by_code_or_name(key: str):
    key = key.strip()
    if key.upper() in REGISTRY:
        return REGISTRY[key.upper()]
    for rule in REGISTRY.values():
        if rule.name == key.lower():
            return rule
    return None


def rule_table() -> list[dict]:
    """Every code bgcheck reports (BG000, then the registered rules): code, name, severity,
    summary and preview, as ``bgcheck rules``, SARIF and the README's table show them."""
    rows = [
        {"code": BG000_CODE, "name": BG000_NAME, "severity": Severity.ERROR.value, "summary": BG000_SUMMARY, "preview": False}
    ]
    rows += [
        {"code": rule.code, "name": rule.name, "severity": rule.severity.value, "summary": rule.summary, "preview": rule.preview}
        for rule in all_rules()
    ]
    return rows
