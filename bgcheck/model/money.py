"""The money model: which project functions move money, and through what.

A function moves money if it calls a known payment SDK call
(``knowledge.MONEY_CALLS``), is named in ``[tool.bgcheck.money] functions``,
has a name that matches a money name pattern (whole words: ``charge_customer``
and ``refund`` match; ``payload``, ``discharge_patient`` and
``payment_status_label`` do not; nor do predicates such as ``is_reverse_charge``
or names for booking money moved elsewhere such as ``record_refund``), or calls
a function that moves money, across modules. For each one the shortest chain to the money is kept for
messages: ``checkout() -> charge_customer() -> stripe.PaymentIntent.create``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from bgcheck import knowledge
from bgcheck.model.project import ProjectIndex, breadth_first

_MONEY_CALLS = knowledge.LazyPattern("|".join(f"(?:{p})" for p in knowledge.MONEY_CALLS))
_WORDS = knowledge.LazyPattern(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def words(identifier: str) -> list[str]:
    """``chargeCustomer`` / ``charge_customer`` -> ["charge", "customer"]."""
    return [w.lower() for w in _WORDS.findall(identifier)]


class NamePatterns:
    """Money name patterns matched as whole-word sequences inside identifiers."""

    def __init__(self, patterns) -> None:
        self.sequences = [tuple(words(p)) for p in patterns if words(p)]
        self.first_words = frozenset(sequence[0] for sequence in self.sequences)
        self.seen: dict[str, bool] = {}  # identifier -> matches (a project repeats its names)

    def matches(self, identifier: str) -> bool:
        if identifier not in self.seen:
            self.seen[identifier] = self._matches(identifier)
        return self.seen[identifier]

    def _matches(self, identifier: str) -> bool:
        found = words(identifier)
        if self.first_words.isdisjoint(found):
            return False
        for sequence in self.sequences:
            n = len(sequence)
            if any(tuple(found[i : i + n]) == sequence for i in range(len(found) - n + 1)):
                if not _asks_or_records(found, sequence):
                    return True
        return False


def _asks_or_records(found: list, sequence: tuple) -> bool:
    """Is a name that contains a money pattern a predicate (``is_reverse_charge``: its first word
    asks a question) or a name for booking money that moved elsewhere (``record_refund``,
    ``create_external_refund``)? Then it does not move money, unless the pattern has that word
    itself (a configured ``record_settlement`` means what it says)."""
    if found[0] in knowledge.MONEY_PREDICATE_FIRST_WORDS and found[0] not in sequence:
        return True
    return any(word in knowledge.MONEY_RECORDING_WORDS and word not in sequence for word in found)


@dataclass(frozen=True)
class Link:
    """One step of a money chain, shown as a note: the first at its function's ``def``, each
    other one at its call in the step before (at the ``def`` where the call's position is unknown)."""

    name: str  # "charge_customer()" or "stripe.PaymentIntent.create"
    path: str
    line: int
    column: int = 1


@dataclass(frozen=True)
class MoneyModel:
    chains: dict  # project function qualname -> tuple[Link, ...] from it to the money (shortest)

    def moves_money(self, qualname: Optional[str]) -> bool:
        return qualname is not None and qualname in self.chains

    def chain_text(self, qualname: str) -> str:
        return " -> ".join(link.name for link in self.chains[qualname])


def money_call(index: ProjectIndex, target: str, patterns: NamePatterns, configured: frozenset = frozenset()) -> Optional[str]:
    """How a call target moves money by itself (an SDK call, a configured function outside the
    project, or a money-named external method), or None."""
    canonical = index.canonical(target) or target
    if _MONEY_CALLS.fullmatch(canonical):
        return canonical.replace("()", "")
    if index.resolve_function(canonical):
        return None  # a project function: judged by its own body (configured ones are seeded as money)
    if canonical in configured or canonical.replace("()", "") in configured:
        return canonical.replace("()", "")  # ``acmepay.Client.settle`` configured, called on an instance
    last = canonical.rsplit(".", 1)[-1]
    if canonical.startswith("?") or "." in canonical:
        if patterns.matches(last):
            return canonical.lstrip("?").replace("()", "")
    return None


def _propagate(index: ProjectIndex, chains: dict, callers: dict, seeds: list) -> None:
    """Breadth-first over callers: the first chain found for a function is a shortest one."""
    known = set(chains) - set(seeds)
    for caller, callee in breadth_first(seeds, lambda name: sorted(callers.get(name, ())), skip=known):
        if callee is not None:
            summary, func = index.functions[caller]
            first, rest = chains[callee][0], chains[callee][1:]
            site = index.call_site(caller, callee)
            if site is not None:
                first = Link(first.name, *site)
            chains[caller] = (Link(f"{func.name}()", summary.path, func.line), first) + rest


def build_money_model(index: ProjectIndex, config) -> MoneyModel:
    patterns = NamePatterns(config.money.name_patterns or knowledge.DEFAULT_MONEY_NAME_PATTERNS)
    # Configured names as written and as they resolve (a re-export names the function it re-exports).
    configured = frozenset(config.money.functions) | frozenset(index.canonical(name) or name for name in config.money.functions)
    chains: dict[str, tuple[Link, ...]] = {}
    callers: dict[str, list[str]] = {}
    by_name: list[str] = []  # money only by their name: seeded after the real chains are known
    for qualname, (summary, func) in sorted(index.functions.items()):
        for callee in index.callees(qualname):
            callers.setdefault(callee, []).append(qualname)
        own = Link(f"{func.name}()", summary.path, func.line)
        if qualname in configured:
            chains[qualname] = (own,)
            continue
        for target, site in zip(func.calls, func.call_sites or ((0, 0),) * len(func.calls)):
            sdk = money_call(index, target, patterns, configured)
            if sdk:
                at = (site[0], site[1]) if site[0] else (func.line, 1)
                chains[qualname] = (own, Link(sdk, summary.path, *at))
                break
        else:
            if patterns.matches(func.name):
                by_name.append(qualname)
    _propagate(index, chains, callers, sorted(chains))
    # A function that is money only by its name comes second, so that a chain
    # ending in the SDK call is preferred where both exist.
    seeds = [q for q in by_name if q not in chains]
    for qualname in seeds:
        summary, func = index.functions[qualname]
        chains[qualname] = (Link(f"{func.name}()", summary.path, func.line),)
    _propagate(index, chains, callers, seeds)
    return MoneyModel(chains)
