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

from dataclasses import dataclass, field
from typing import Mapping, Optional

from bgcheck import knowledge
from bgcheck.syntax.ir import as_call, call_name, callee_name, ref_name
from bgcheck.model.project import ProjectIndex, recorded_calls_to


def on_commit_callbacks(index: ProjectIndex) -> set[str]:
    found: set[str] = set()
    for _summary, call, _scope in recorded_calls_to(index, knowledge.ON_COMMIT):
        if not call.args:
            continue
        argument = call.first_arg
        inner = as_call(argument)
        if inner is not None and inner.target in knowledge.PARTIALS and inner.args:
            argument = inner.first_arg
        if ref_name(argument) is not None:
            function = index.resolve_function(ref_name(argument))
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
    for _summary, call, scope in recorded_calls_to(index, knowledge.TRANSACTION_CONTEXTS):
        using = call.keyword("using")
        (reads if using is not None and read_only_alias(index.fold(using)) else writes).add(scope)
    return reads - writes


def _opens_transaction(index: ProjectIndex, func, read_only: set[str]) -> bool:
    """Does the function's own body open a transaction: ``atomic()``, ``@atomic`` or ``x.begin()``?"""
    for decorator in func.decorators:
        if index.canonical(callee_name(decorator)) in knowledge.TRANSACTION_CONTEXTS:
            call = as_call(decorator)
            using = call.keyword("using") if call is not None else None
            if using is None or not read_only_alias(index.fold(using)):
                return True
    for call in func.calls:
        name = index.canonical(call) or ""
        if name in knowledge.TRANSACTION_CONTEXTS:
            if func.qualname not in read_only:
                return True
        elif knowledge.TRANSACTION_BEGIN.fullmatch(name):
            return True
    return False


def transaction_helpers(index: ProjectIndex) -> set[str]:
    """Project context managers whose body opens a transaction (``transaction.atomic()``,
    SQLAlchemy ``session.begin()``): ``with write_session():`` is a transaction in any module."""
    read_only = _read_only_scopes(index)
    found: set[str] = set()
    for qualname, (_summary, func) in index.functions.items():
        decorators = {index.canonical(callee_name(d)) for d in func.decorators}
        if decorators & knowledge.CONTEXTMANAGER and _opens_transaction(index, func, read_only):
            found.add(qualname)
    return found


def transaction_decorators(index: ProjectIndex) -> set[str]:
    """Project decorators that run the decorated function in a transaction: the decorator, a
    function it defines (the wrapper, at any depth: ``@in_transaction(using=...)``), opens one.
    A plain function that opens a transaction counts only where it is used as a decorator."""
    read_only = _read_only_scopes(index)
    opens = {q for q, (_s, f) in index.functions.items() if _opens_transaction(index, f, read_only)}
    # A function opens one, or defines (at any depth) a function that does: each function that
    # encloses an opener, cut before each ``.<locals>.`` of the opener's name.
    enclosing = set(opens)
    for inner in opens:
        cut = inner.find(".<locals>.")
        while cut >= 0:
            enclosing.add(inner[:cut])
            cut = inner.find(".<locals>.", cut + 1)
    return {
        qualname
        for qualname, (_summary, func) in index.functions.items()
        if "<locals>" not in qualname and func.params and qualname in enclosing
    }


def atomic_requests(index: ProjectIndex) -> bool:
    """Does a settings module set ``ATOMIC_REQUESTS = True`` for a database: in the ``DATABASES`` it
    binds, or key by key after (``DATABASES["default"]["ATOMIC_REQUESTS"] = True``, as projects made
    from cookiecutter-django do on top of ``env.db()``)? Or a function that fills in a settings object
    it is handed (``settings.DATABASES = {...}`` in ``setup_settings(settings)``, which the projects a
    platform generates call from their settings module)?"""
    for summary in index.modules.values():
        if any(path.startswith("?") and path.endswith(".DATABASES") and _turns_on(index.fold(item))
               for path, item, _scope, _before in summary.attr_assignments):
            return True
        databases = summary.constants.get("DATABASES")
        if databases is None:
            continue
        if _turns_on(index.fold(databases)):
            return True
        stored = f"{summary.module}.DATABASES["
        if any(path.startswith(stored) and path.endswith("['ATOMIC_REQUESTS']") and index.fold(item) is True
               for path, item, _scope, _before in summary.attr_assignments):
            return True
    return False


def _turns_on(databases) -> bool:
    """A folded ``DATABASES`` with an entry whose ``ATOMIC_REQUESTS`` is True."""
    return isinstance(databases, dict) and any(isinstance(entry, dict) and entry.get("ATOMIC_REQUESTS") is True for entry in databases.values())


# --- labels: what opens a transaction, what publishes ----------------------------------------
#
# One place for each question, asked by the rule of a CST node (through its IR) and by the model
# of what a summary recorded.


def item_label(index: ProjectIndex, item, written: Optional[str] = None) -> Optional[str]:
    """How a ``with`` item opens a transaction (``"`with transaction.atomic():`"``), or None: also for a
    read replica's snapshot. ``written``: the receiver of ``x.begin()`` as written, when known."""
    if ref_name(item) is not None:
        return "`with transaction.atomic:`" if index.canonical(ref_name(item)) in knowledge.TRANSACTION_CONTEXTS else None
    target = call_name(item)
    if not target:
        return None
    if _reads_replica(index, item):
        return None
    name = index.canonical(target) or target
    if name in knowledge.TRANSACTION_CONTEXTS:
        return "`with transaction.atomic():`"
    if target.endswith(".begin"):
        path = target[: -len(".begin")]
        # as written, else the last name of what it resolves to (``Billing().session`` -> ``session``)
        receiver = written or (path.lstrip("?") if path.startswith("?") else path.rsplit(".", 1)[-1].replace("()", ""))
        if knowledge.TRANSACTION_BEGIN.fullmatch(name):
            return f"`with {receiver}.begin():`"
    function = index.resolve_function(name)
    if function and function in index.transaction_helpers:
        return f"`with {function.rsplit('.', 1)[-1]}():` (which opens a transaction)"
    return None


def decorator_label(index: ProjectIndex, decorator) -> Optional[str]:
    """How a decorator runs its function in a transaction: ``@transaction.atomic``, ``@atomic(using=...)``
    on a database that writes, a project decorator that opens one (``@in_transaction``, ``@write_session()``)."""
    is_call = as_call(decorator) is not None
    if not is_call and ref_name(decorator) is None:
        return None
    if is_call and _reads_replica(index, decorator):
        return None
    target = index.canonical(callee_name(decorator))
    if target in knowledge.TRANSACTION_CONTEXTS:
        return "a function decorated with `@transaction.atomic`"
    function = index.resolve_function(target)
    if function is None:
        return None
    if function in index.transaction_decorators or (is_call and function in index.transaction_helpers):
        return f"a function decorated with `@{function.rsplit('.', 1)[-1]}` (which opens a transaction)"
    return None


def _reads_replica(index: ProjectIndex, call) -> bool:
    using = as_call(call).keyword("using")
    return using is not None and read_only_alias(index.fold(using))


def own_transaction(index: ProjectIndex, qualname: str) -> Optional[str]:
    """How a function's whole body runs in a transaction of its own: a decorator, a view under
    ATOMIC_REQUESTS, a Django admin's method, a hook a framework runs in its transaction."""
    func = index.function(qualname)
    if func is None:
        return None
    for decorator in func.decorators:
        label = decorator_label(index, decorator)
        if label:
            return label
    return view_label(index, qualname) or admin_label(index, qualname) or index.hooks_in_transaction.get(qualname)


def admin_label(index: ProjectIndex, qualname: str) -> Optional[str]:
    """How a method of a project's Django ModelAdmin runs in the admin view's transaction
    (knowledge.ADMIN_METHODS_IN_TRANSACTION), or None."""
    func = index.function(qualname)
    if func is None or func.class_qualname is None or func.name not in knowledge.ADMIN_METHODS_IN_TRANSACTION:
        return None
    if not index.class_bases(func.class_qualname) & knowledge.DJANGO_MODEL_ADMINS:
        return None
    return f"a Django admin's `{func.name}()`, which the admin's view runs inside transaction.atomic()"


def view_label(index: ProjectIndex, qualname: str) -> Optional[str]:
    """How a Django view runs in a transaction under ATOMIC_REQUESTS, or None (not a view, or no ATOMIC_REQUESTS)."""
    view = index.views.get(qualname)
    return f"a view ({view}), and ATOMIC_REQUESTS = True wraps every view in a transaction" if view is not None else None


def publish_label(index: ProjectIndex, name: Optional[str], method: str, receiver: Optional[str], receiver_path: Optional[str]) -> Optional[str]:
    """How to name a call that publishes a message or enqueues a task (``send_receipt.delay()``), or None.
    ``name``: the call's canonical name (None when it does not resolve); ``receiver``: the receiver as
    written; ``receiver_path``: what the receiver resolves to (a task's or a Dramatiq actor's function).
    Only what the model resolves publishes (knowledge.PUBLISH_APIS, or a task of the job model): a
    method name alone never does."""
    receiver_path = receiver_path or (name.rpartition(".")[0] if name and not name.startswith("?") else None)
    shown = f"{receiver or _as_written(receiver_path)}.{method}()"
    if receiver_path and (method in knowledge.DRAMATIQ_SEND or method in knowledge.TASK_SEND_METHODS):
        task = _queued_task(index, receiver_path)
        if task is not None:
            if method in knowledge.DRAMATIQ_SEND and not any(j.framework.startswith("Dramatiq") for j in index.job_roots.get(task, ())):
                return None
            return None if sends_on_commit(index, task) or send_replaced(index, task) else shown
    if method == "send" and name and knowledge.KAFKA_SEND.fullmatch(name):
        return "producer.send()"
    if name and knowledge.PUBLISH_APIS.fullmatch(name):
        return shown
    return None


def _as_written(receiver_path: Optional[str]) -> str:
    """A receiver that is a call, shown short: ``shop.tasks.send_receipt.s()`` -> ``send_receipt.s(...)``."""
    if not receiver_path:
        return "..."
    parts = receiver_path.split(".")
    return ".".join(p.replace("()", "(...)") for p in parts[-2:])


def _queued_task(index: ProjectIndex, receiver_path: str) -> Optional[str]:
    """The project function a task-sending call's receiver is, when the job model has it as a queued
    job: ``send_receipt`` or its signature ``send_receipt.s(1)``."""
    head, dot, last = receiver_path.rpartition(".")
    if dot and last.removesuffix("()") in knowledge.CELERY_SIGNATURE_METHODS and last.endswith("()"):
        receiver_path = head
    task = index.resolve_function(receiver_path)
    if task and any(job.kind in ("queued", "scheduled") for job in index.job_roots.get(task, ())):
        return task
    return None


def _send_overrides(index: ProjectIndex, task: str):
    """The project's ``apply_async``/``delay`` methods in the ancestry of the base class a task is
    declared with (``@app.task(base=TransactionAwareTask)``)."""
    for job in index.job_roots.get(task, ()):
        base = job.options.get("base") if isinstance(job.options, dict) else None
        if not (isinstance(base, tuple) and len(base) == 2 and base[0] == "ref"):
            continue
        cls = index.canonical(base[1])
        for ancestor in index.mro(cls) if cls in index.classes else ():
            for method in knowledge.TASK_SEND_METHODS:
                func = index.function(f"{ancestor}.{method}")
                if func is not None:
                    yield func


def sends_on_commit(index: ProjectIndex, task: str) -> bool:
    """Is the task declared with a base class whose ``apply_async`` (or ``delay``) hands the send to
    ``transaction.on_commit``? Then every send of it leaves after the commit."""
    return any(index.canonical(call) in knowledge.ON_COMMIT for func in _send_overrides(index, task) for call in func.calls)


def send_replaced(index: ProjectIndex, task: str) -> bool:
    """Does the task's base class replace the send with code of its own that does not surely make it
    (``apply_async`` that dispatches to a deduplication backend, and calls ``super().apply_async()``
    only on some branches)? What such a send does, and when, bgcheck does not know."""
    for func in _send_overrides(index, task):
        conditional = {func.calls[i] for i in func.conditional_calls if i < len(func.calls)}
        sure = [target for target in func.calls if target not in conditional]
        if not any(target.rsplit(".", 1)[-1] in knowledge.TASK_SEND_METHODS for target in sure):
            return True
    return False


def target_publishes(index: ProjectIndex, target: str) -> Optional[str]:
    """``publish_label`` for a call target as a summary keeps it (``pkg.tasks.send_receipt.delay``,
    ``?self.producer.send``)."""
    head, dot, method = target.rpartition(".")
    if not dot or not method.isidentifier():
        return None
    if target.startswith("?"):
        written = head.lstrip("?") or None
        return publish_label(index, None, method, written, None)
    written = head.rsplit(".", 1)[-1].replace("()", "")
    return publish_label(index, index.canonical(target), method, written, head)


# --- transactions through calls ------------------------------------------------------------------
#
# A function that publishes and is called only inside transactions publishes inside one; a call
# made inside a transaction to a function that publishes publishes inside it. Both are followed a
# bounded number of calls: the claim must be one a reader can check by following the notes.

# Calls from a transaction's call down to the publish (``place() -> notify() -> send.delay()``: 2).
CALL_DEPTH = 2
# Callers followed up from a publishing function to where the transaction opens.
CALLER_DEPTH = 2


@dataclass(frozen=True)
class Step:
    """One function on the way from a transaction to a publish, for notes."""

    function: str
    text: str  # "place_order() calls notify() inside `with transaction.atomic():`"


# A publishing function's way to the publish: (project functions from it down to the one that
# publishes, the publish's label, its target).
Publish = tuple[tuple[str, ...], str, str]


@dataclass(frozen=True)
class TransactionModel:
    """Built once by build_transaction_model; nothing changes it afterwards."""

    # A function all of whose callers run it inside a transaction: the steps from where the
    # transaction opens down to the call of it.
    runs_inside: Mapping[str, tuple[Step, ...]] = field(default_factory=dict)
    # A function that publishes outside any transaction of its own, directly or through a call or two.
    publishes: Mapping[str, Publish] = field(default_factory=dict)
    # Modules with a function that calls one of ``publishes`` (where a call inside a transaction may be).
    calling_modules: frozenset[str] = frozenset()
    # Functions that publish inside a transaction of their own and that another project function
    # calls: their transaction may be a savepoint of the caller's, which may have written rows.
    called_publishers: frozenset[str] = frozenset()
    # A publishing function -> (caller, session) for each caller that commits a SQLAlchemy session
    # after calling it: a write on that session in the function, before its publish, is committed
    # only there (``add(order); send.delay(order.id)`` in a helper, ``helper(); db.session.commit()``).
    committed_by_callers: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)

    def facts(self) -> tuple:
        """What the model says, as plain sorted data (the cache's project facts)."""
        return (
            sorted((q, [(s.function, s.text) for s in steps]) for q, steps in self.runs_inside.items()),
            sorted((q, list(chain), label, target) for q, (chain, label, target) in self.publishes.items()),
            sorted(self.calling_modules),
            sorted(self.called_publishers),
            sorted((q, list(pairs)) for q, pairs in self.committed_by_callers.items()),
        )


def _places(func) -> dict[str, set]:
    """target -> where this function calls it: "plain", "lambda", or ("with", items, locks rows); and
    "sure" when some call of it is made whenever the function runs that far (under no condition)."""
    places: dict[str, set] = {}
    conditional = {func.calls[i] for i in func.conditional_calls if i < len(func.calls)}
    for target in func.calls:
        if target not in conditional:
            places.setdefault(target, set()).add("sure")
    for entry in func.call_contexts:
        if entry[0] == "with":
            places.setdefault(entry[1], set()).add(("with", entry[2], entry[3]))
        else:
            places.setdefault(entry[1], set()).add(entry[0])
    for target in func.calls:
        if places.get(target, {"sure"}) <= {"sure"}:
            places.setdefault(target, set()).add("plain")
    return places


def _outside(index: ProjectIndex, where: set) -> bool:
    """Is one of these places outside any transaction of the function's own and any lambda?"""
    return any(p == "plain" or (isinstance(p, tuple) and not _transaction_of(index, p)) for p in where)


def _transaction_of(index: ProjectIndex, place) -> Optional[tuple[str, bool]]:
    """(label, locks rows) when a ``with`` place opens a transaction."""
    if isinstance(place, tuple):
        for item in place[1]:
            label = item_label(index, item)
            if label:
                return label, place[2]
    return None


def _unknown_callers(index: ProjectIndex, qualname: str, func, referenced: set, unresolved: set) -> bool:
    """Can the function be called from where bgcheck cannot see: a job, a callback, a framework hook,
    a call it cannot resolve, import-time code?"""
    if qualname in index.job_roots or qualname in index.on_commit_callbacks or qualname in referenced:
        return True
    if func.name.startswith("__") or func.name in unresolved:
        return True
    if func.class_qualname is not None:
        _summary, cls = index.classes.get(func.class_qualname, (None, None))
        bases = [b for b in (cls.bases if cls else ()) if b not in (None, "object", "builtins.object")]
        if cls is None or any(index.canonical(b) not in index.classes for b in bases):
            return True  # a library base class may call it
    return False


def build_transaction_model(index: ProjectIndex) -> TransactionModel:
    places = {q: _places(f) for q, (_s, f) in index.functions.items()}
    own = {q: own_transaction(index, q) for q in index.functions}
    direct: dict[str, tuple[str, str]] = {}  # publishes outside its own transactions: (label, target)
    surely: dict[str, tuple[str, str]] = {}  # ... and does so under no condition
    for qualname, targets in places.items():
        if own[qualname] or qualname in index.on_commit_callbacks:
            continue
        for target, where in sorted(targets.items()):
            if _outside(index, where) and not _nudges_a_scheduled_task(index, qualname, target):
                label = target_publishes(index, target)
                if label:
                    direct.setdefault(qualname, (label, target))
                    if "sure" in where:
                        surely[qualname] = (label, target)
                        break
    own_publishers = {q for q, targets in places.items() if own[q] and any(target_publishes(index, t) for t in targets)}
    if not direct and not own_publishers:
        return TransactionModel()
    callers: dict[str, list[tuple[str, set]]] = {}
    for qualname, targets in places.items():
        for target, where in targets.items():
            callee = index.resolve_function(target)
            if callee and callee != qualname:
                callers.setdefault(callee, []).append((qualname, where))
    called_publishers = frozenset(q for q in own_publishers if q in callers)
    if not direct:
        return TransactionModel(called_publishers=called_publishers)
    # A call made inside a transaction is claimed to publish only when the publish is sure to follow
    # (no condition on the way, such as an argument the caller passes); a publish every caller
    # makes inside a transaction is inside one whatever the conditions.
    publishes = _follow_down(index, surely, callers, own)
    runs_inside = _follow_up(index, set(direct), callers, own)
    calling_modules = frozenset(
        index.functions[caller][0].module for callee in publishes for caller, _where in callers.get(callee, ())
    )
    committed = {q: found for q in direct if (found := _committed_by_callers(index, q, callers))}
    return TransactionModel(runs_inside, publishes, calling_modules, called_publishers, committed)


def session_method(index: ProjectIndex, target: str) -> tuple[Optional[str], str]:
    """(the session, canonical, and the method) when the call target ``target`` is a method of a
    SQLAlchemy session (its ``begin`` is in knowledge.TRANSACTION_BEGIN), else (None, "")."""
    receiver, _dot, method = target.rpartition(".")
    receiver = index.canonical(receiver) or receiver
    if receiver and not receiver.startswith("?") and knowledge.TRANSACTION_BEGIN.fullmatch(f"{receiver}.begin"):
        return receiver, method
    return None, ""


def _committed_by_callers(index: ProjectIndex, qualname: str, callers: dict) -> tuple[tuple[str, str], ...]:
    """The (caller, session) pairs whose caller commits the session after its call of the function,
    with no rollback or close of it first (calls in first-appearance order: an end of the session
    anywhere before the commit rules the caller out)."""
    found = []
    for caller, _where in sorted(callers.get(qualname, ()), key=lambda c: c[0]):
        func = index.function(caller)
        if func is None or own_transaction(index, caller):
            continue
        at = next((i for i, t in enumerate(func.calls) if index.resolve_function(t) == qualname), None)
        ended: set[str] = set()
        for position, target in enumerate(func.calls):
            session, method = session_method(index, target)
            if session is None or session in ended:
                continue
            if method == "commit" and at is not None and position > at:
                found.append((caller, session))
                ended.add(session)
            elif method in knowledge.SESSION_ENDS:
                ended.add(session)
    return tuple(found)


def runs_on_a_schedule(index: ProjectIndex, task: Optional[str]) -> bool:
    """Does a schedule (a Celery beat entry, ``add_periodic_task``) also run this task function?"""
    return bool(task) and any(job.kind == "scheduled" for job in index.job_roots.get(task, ()))


def _nudges_a_scheduled_task(index: ProjectIndex, qualname: str, target: str) -> bool:
    """Does the function send a task that a schedule also runs with no arguments, at every call of
    ``target`` (``sync_groups.apply_async(countdown=10)``: options only)? The message names no row
    (BG604 says so at such a send itself; a caller's transaction is no different)."""
    head, _dot, method = target.rpartition(".")
    if method not in knowledge.TASK_SEND_METHODS or target.startswith("?"):
        return False
    task = _queued_task(index, index.canonical(head) or head)
    if task is None or not runs_on_a_schedule(index, task):
        return False
    func = index.function(qualname)
    position = func.calls.index(target) if func is not None and target in func.calls else -1
    given = next((dict(keys) for at, keys in func.call_arguments if at == position), None) if func else None
    if given is None:
        return False
    if method == "apply_async":
        return not any(isinstance(key, int) or key in ("args", "kwargs") for key in given)
    return not given


def short_call(qualname: str) -> str:
    return f"{qualname.rsplit('.', 1)[-1]}()"


def _follow_down(index, direct: dict, callers: dict, own: dict) -> dict[str, Publish]:
    """The model's ``publishes``: the publishing functions, then their callers that call them outside any
    transaction of their own (a call inside one is reported where it stands), ``CALL_DEPTH`` deep."""
    publishes: dict[str, Publish] = {}
    level = sorted(direct)
    for qualname in level:
        publishes[qualname] = ((qualname,), *direct[qualname])
    for _ in range(CALL_DEPTH - 1):
        following = []
        for callee in level:
            chain, label, target = publishes[callee]
            for caller, where in sorted(callers.get(callee, ()), key=lambda c: c[0]):
                if caller in publishes or own[caller] or caller in index.on_commit_callbacks:
                    continue
                if "sure" in where and _outside(index, where):
                    publishes[caller] = ((caller,) + chain, label, target)
                    following.append(caller)
        level = following
    return publishes


def _follow_up(index, publishing: set, callers: dict, own: dict) -> dict[str, tuple[Step, ...]]:
    """The model's ``runs_inside`` for the publishing functions every caller of which runs them inside a
    transaction, ``CALLER_DEPTH`` callers up."""
    referenced: set[str] = set()
    unresolved: set[str] = set()
    for summary in index.modules.values():
        for path in (*summary.passed_refs, *summary.module_calls):
            function = index.resolve_function(path)
            if function:
                referenced.add(function)
    for target in index.all_call_targets():
        if target.startswith("?"):
            unresolved.add(target.rsplit(".", 1)[-1].lstrip("?"))
    memo: dict[tuple[str, int], Optional[tuple]] = {}

    def inside(qualname: str, depth: int) -> Optional[tuple]:
        key = (qualname, depth)
        if key not in memo:
            memo[key] = None  # a cycle of callers is not followed
            memo[key] = _inside(qualname, depth)
        return memo[key]

    def _inside(qualname: str, depth: int) -> Optional[tuple]:
        func = index.function(qualname)
        if func is None or _unknown_callers(index, qualname, func, referenced, unresolved) or not callers.get(qualname):
            return None
        shown: Optional[tuple] = None
        for caller, where in sorted(callers[qualname], key=lambda c: c[0]):
            for place in sorted(where - {"sure"}, key=repr):
                steps = _step(caller, qualname, place, depth)
                if steps is None:
                    return None
                shown = shown or steps
        return shown

    def _step(caller: str, callee: str, place, depth: int) -> Optional[tuple]:
        if place == "lambda":
            return None
        opened = _transaction_of(index, place)
        if opened:
            label, locks = opened
            # a block that locks rows may be an outbox relay publishing them: not known to be wrong
            return None if locks else (Step(caller, f"{short_call(caller)} calls {short_call(callee)} inside {label}"),)
        if own[caller]:
            return (Step(caller, f"{short_call(caller)} is {own[caller]}, and calls {short_call(callee)}"),)
        outer = inside(caller, depth - 1) if depth > 1 else None
        return outer + (Step(caller, f"{short_call(caller)} calls {short_call(callee)}"),) if outer else None

    runs_inside: dict[str, tuple[Step, ...]] = {}
    for qualname in sorted(publishing):
        steps = inside(qualname, CALLER_DEPTH)
        if steps:
            runs_inside[qualname] = steps
    return runs_inside
