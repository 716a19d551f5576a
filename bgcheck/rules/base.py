"""What a rule is.

A rule is a small class: its metadata (code, name, severity, a one-line
summary) and ``visit_<NodeType>(self, node, ctx)`` methods. The checker walks
each file once and hands every node to the rules that asked for its type,
with a shared ``ctx`` (see ``bgcheck.rules.checker.FileContext``) that already
knows what names resolve to, which function we are in, and whether it is
job code. A rule's examples and explanation live on its page in ``rules/``.
"""

from __future__ import annotations

from typing import ClassVar

from bgcheck.diagnostics import Severity


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity]
    summary: ClassVar[str]
    # A preview rule runs only with `preview = true` or `--preview`: its precision on real
    # projects (scripts/ecosystem.py) is not yet where a default rule's must be.
    preview: ClassVar[bool] = False
    # "safe" or "unsafe" when the rule offers a fix (on the findings where the right change is
    # clear: see its page), "" when it offers none. ``--fix`` applies safe fixes; unsafe ones,
    # which can change behaviour, only with ``--unsafe-fixes``.
    fixable: ClassVar[str] = ""
    # The code this rule's findings were reported under before it split off that rule (BG605 from
    # BG602): a `# noqa`, `ignore`/`select` entry or baseline entry written for the old code still
    # covers them, so upgrading never brings back what a user had silenced (ruff's redirects).
    split_from: ClassVar[str] = ""
    # The project facts (bgcheck.model.facts.FACTS) the rule reads beyond its file and the modules
    # it imports: the cache key of its results digests them. tests/test_facts.py checks the list.
    reads: ClassVar[tuple[str, ...]] = ()

    def __init__(self, config) -> None:
        self.config = config

    def is_relevant(self, unit) -> bool:
        """Cheap test: can this rule find anything in the file? (``unit`` is a load.unit.FileUnit)."""
        return True

    @classmethod
    def handlers(cls) -> dict[str, str]:
        """CST node type name -> method name, for every ``visit_<Type>`` method."""
        return {
            attr[len("visit_") :]: attr
            for attr in dir(cls)
            if attr.startswith("visit_") and callable(getattr(cls, attr))
        }


REGISTRY: dict[str, type[Rule]] = {}


def register(rule: type[Rule]) -> type[Rule]:
    if rule.code in REGISTRY:
        raise RuntimeError(f"duplicate rule code {rule.code}")
    REGISTRY[rule.code] = rule
    return rule
