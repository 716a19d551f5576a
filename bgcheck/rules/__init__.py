"""The rules. The rule modules register themselves in ``REGISTRY`` when imported, and are
imported on first use (``all_rules``, ``rule_by_code_or_name``, ``REGISTRY``): they pull in
libcst and the project models, which ``bgcheck --version``, ``bgcheck rules`` (see
``catalog.py``) and the reporters do not need. Every module of the package is imported: a
new rule family is a new module, listed nowhere else."""

from __future__ import annotations

import importlib
import pkgutil

from bgcheck.diagnostics import BG000_CODE, BG000_NAME, BG000_SUMMARY, Severity
from bgcheck.rules import base
from bgcheck.rules.base import Rule

__all__ = ["REGISTRY", "Rule", "all_rules", "facts_read", "rule_by_code_or_name", "rule_table"]

def _registry() -> dict[str, type[Rule]]:
    """Every module of the package imported (a no-op once imported): a rule family is a module
    here whose ``@register`` fills the registry, listed nowhere else."""
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    return base.REGISTRY


def __getattr__(name: str):
    if name == "REGISTRY":
        return _registry()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def all_rules() -> list[type[Rule]]:
    registry = _registry()
    return [registry[code] for code in sorted(registry)]


def facts_read(codes) -> tuple[str, ...]:
    """The project facts (bgcheck.model.facts) the rules with these codes declare they read, sorted:
    what the cache key of their results digests."""
    registry = _registry()
    return tuple(sorted({fact for code in codes if code in registry for fact in registry[code].reads}))


def rule_by_code_or_name(key: str):
    registry = _registry()
    key = key.strip()
    if key.upper() in registry:
        return registry[key.upper()]
    for rule in registry.values():
        if rule.name == key.lower():
            return rule
    return None


def rule_table() -> list[dict]:
    """Every code bgcheck reports (BG000, then the registered rules): code, name, severity,
    summary, preview and fix (safe, unsafe or ""), from the rule classes (SARIF, the README's table and catalog.py,
    which ``bgcheck rules`` prints, are written from it)."""
    rows = [
        {"code": BG000_CODE, "name": BG000_NAME, "severity": Severity.ERROR.value, "summary": BG000_SUMMARY, "preview": False, "fix": "", "split_from": ""}
    ]
    rows += [
        {"code": rule.code, "name": rule.name, "severity": rule.severity.value, "summary": rule.summary, "preview": rule.preview,
         "fix": rule.fixable, "split_from": rule.split_from}
        for rule in all_rules()
    ]
    return rows
