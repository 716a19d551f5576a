"""What the project knows about database transactions (BG604).

* functions passed to ``transaction.on_commit(...)`` anywhere: they run
  after the commit, so publishing from them is the fix, not the fault;
* project helpers that wrap ``transaction.atomic()`` in a context manager;
* Django's ``ATOMIC_REQUESTS = True`` in a ``DATABASES`` entry, under which
  every view runs inside a transaction.
"""

from __future__ import annotations

from bgcheck import knowledge
from bgcheck.project import ProjectIndex


def on_commit_callbacks(index: ProjectIndex) -> set[str]:
    found: set[str] = set()
    for summary in index.modules.values():
        for call, _scope in summary.recorded_calls:
            if index.canonical(call[1]) not in knowledge.ON_COMMIT or not call[2]:
                continue
            argument = call[2][0]
            if argument[0] == "call" and argument[1] in knowledge.PARTIALS and argument[2]:
                argument = argument[2][0]
            if argument[0] == "ref":
                function = index.resolve_function(argument[1])
                if function:
                    found.add(function)
    return found


def transaction_helpers(index: ProjectIndex) -> set[str]:
    """Project context managers whose body opens ``transaction.atomic()``."""
    found: set[str] = set()
    for qualname, (_summary, func) in index.functions.items():
        decorators = {index.canonical(d[1]) for d in func.decorators if d[0] in ("ref", "call")}
        if not decorators & knowledge.CONTEXTMANAGER:
            continue
        if any(index.canonical(call) in knowledge.TRANSACTION_CONTEXTS for call in func.calls):
            found.add(qualname)
    return found


def atomic_requests(index: ProjectIndex) -> bool:
    for summary in index.modules.values():
        databases = summary.constants.get("DATABASES")
        if databases is None:
            continue
        value = index.fold(databases)
        if isinstance(value, dict) and any(isinstance(entry, dict) and entry.get("ATOMIC_REQUESTS") is True for entry in value.values()):
            return True
    return False
