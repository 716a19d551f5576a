"""What the project knows about database transactions (BG604).

* functions passed to ``transaction.on_commit(...)`` anywhere: they run
  after the commit, so publishing from them is the fix, not the fault;
* project helpers that wrap ``transaction.atomic()`` (or SQLAlchemy ``begin()``) in a context
  manager or a decorator, with or without arguments; one whose ``atomic(using=...)`` names a read
  replica (``knowledge.READ_ONLY_DATABASE``) is a snapshot, not a transaction;
* Django's ``ATOMIC_REQUESTS = True`` in a ``DATABASES`` entry, under which
  every view runs inside a transaction.
"""

from __future__ import annotations

from bgcheck import knowledge
from bgcheck.model.project import ProjectIndex


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


def read_only_alias(value) -> bool:
    """A folded ``using=`` value that names a read replica (``"replica"``, ``"orders_ro"``): a snapshot."""
    return isinstance(value, str) and knowledge.READ_ONLY_DATABASE.fullmatch(value) is not None


def _read_only_scopes(index: ProjectIndex) -> set[str]:
    """Functions whose every ``atomic(...)`` call names a read replica in ``using=``."""
    writes: set[str] = set()
    reads: set[str] = set()
    for summary in index.modules.values():
        for call, scope in summary.recorded_calls:
            if call[0] != "call" or index.canonical(call[1]) not in knowledge.TRANSACTION_CONTEXTS:
                continue
            using = dict(call[3]).get("using")
            (reads if using is not None and read_only_alias(index.fold(using)) else writes).add(scope)
    return reads - writes


def _opens_transaction(index: ProjectIndex, func, read_only: set[str]) -> bool:
    """Does the function's own body open a transaction: ``atomic()``, ``@atomic`` or ``x.begin()``?"""
    for decorator in func.decorators:
        if decorator[0] in ("ref", "call") and index.canonical(decorator[1]) in knowledge.TRANSACTION_CONTEXTS:
            using = dict(decorator[3]).get("using") if decorator[0] == "call" else None
            if using is None or not read_only_alias(index.fold(using)):
                return True
    for call in func.calls:
        name = index.canonical(call) or ""
        if name in knowledge.TRANSACTION_CONTEXTS:
            if func.qualname not in read_only:
                return True
        elif name.endswith(".begin") and (
            knowledge.TRANSACTION_BEGIN.fullmatch(name)
            or knowledge.TRANSACTION_RECEIVER_WORDS.search(name[: -len(".begin")].rsplit(".", 1)[-1].lstrip("?"))
        ):
            return True
    return False


def transaction_helpers(index: ProjectIndex) -> set[str]:
    """Project context managers whose body opens a transaction (``transaction.atomic()``,
    SQLAlchemy ``session.begin()``): ``with write_session():`` is a transaction in any module."""
    read_only = _read_only_scopes(index)
    found: set[str] = set()
    for qualname, (_summary, func) in index.functions.items():
        decorators = {index.canonical(d[1]) for d in func.decorators if d[0] in ("ref", "call")}
        if decorators & knowledge.CONTEXTMANAGER and _opens_transaction(index, func, read_only):
            found.add(qualname)
    return found


def transaction_decorators(index: ProjectIndex) -> set[str]:
    """Project decorators that run the decorated function in a transaction: the decorator, a
    function it defines (the wrapper, at any depth: ``@in_transaction(using=...)``), opens one.
    A plain function that opens a transaction counts only where it is used as a decorator."""
    read_only = _read_only_scopes(index)
    opens = {q for q, (_s, f) in index.functions.items() if _opens_transaction(index, f, read_only)}
    found: set[str] = set()
    for qualname, (_summary, func) in index.functions.items():
        if "<locals>" in qualname or not func.params:
            continue
        prefix = qualname + ".<locals>."
        if qualname in opens or any(inner.startswith(prefix) for inner in opens):
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
