"""BG5xx: distributed locks.

A lock stops a twin run on another replica only while it lives: its TTL
must outlast the longest run, it must expire if its holder is killed, and
only its holder may release it. TTLs are read with each API's parameter,
unit and default (``knowledge.LOCK_APIS``) and held against the runtimes
the user measured (``[tool.bgcheck.runtimes]``, ``runtimes-file``,
``--runtimes``) and the job's declared limits.
"""

from __future__ import annotations

from bgcheck.syntax.lazy import cst

from bgcheck import knowledge
from bgcheck.diagnostics import Severity, clip, short_name
from bgcheck.model.locks import (
    NEVER,
    LockArgs,
    configured_defaults,
    declared_limit,
    holding_jobs,
    key_text,
    keys_match,
    match_api,
    read_lock,
    runtime_for,
    through_arguments_note,
)
from bgcheck.rules.base import Rule, register
from bgcheck.rules.calls import argument, receiver_kind
from bgcheck.rules.relevance import calls_any
from bgcheck.syntax.walk import find_all
from bgcheck.rules.checker import FileContext

def _lock_args(node: cst.Call, ctx: FileContext) -> LockArgs:
    positional = tuple(ctx.to_ir(a.value) for a in node.args if a.keyword is None and not a.star)
    keywords = {a.keyword.value: ctx.to_ir(a.value) for a in node.args if a.keyword is not None}
    return LockArgs(positional, keywords)


def _lock_at(node: cst.Call, ctx: FileContext):
    """(api, (key, ttl, note, auto_renewal)) when this call acquires a distributed lock."""
    if any(a.star for a in node.args):
        return None, None
    api = match_api(ctx.resolve_call(node))
    if api is None or (api.result_decides and isinstance(ctx.parent(), cst.Expr)):
        return None, None  # ``cache.add(key, v, None)`` alone: sets a default once, takes no lock
    if api.result_decides and _counted_up(node, api, ctx):
        return None, None
    read = read_lock(api, _lock_args(node, ctx), ctx.index.fold, configured_defaults(ctx.index))
    if read is not None and read[1] is None:
        read = _ttl_from_callers(node, api, ctx) or read
    return api, read


def _ttl_from_callers(node: cst.Call, api, ctx: FileContext) -> Optional[tuple]:
    """The model's reading of a lock whose TTL is a parameter of the function (``timeout=ttl``) that no
    call in the project passes (the lock model follows the callers: LockSite's note says so)."""
    for site in ctx.index.locks:
        if site.function != ctx.function_qualname or site.api != api.label or site.ttl is not NEVER:
            continue
        for keyword in (api.ttl[0], *(other for other, _ in api.other_ttl)):
            value = argument(node, keyword)
            if isinstance(value, cst.Name) and site.ttl_note.startswith(through_arguments_note(keyword, value.value)):
                return site.key, NEVER, site.ttl_note, site.auto_renewal
    return None


def _counted_up(node: cst.Call, api, ctx: FileContext) -> bool:
    """``if cache.add(key, 1, timeout=60): return 1`` then ``cache.incr(key)``: a write-if-absent
    that starts a counter (a rate limit's hits per minute) which the same function counts up. The
    key is a counter, not a lock: nothing waits for it, and its expiry only starts a new count."""
    key = argument(node, *api.key) if api.key else None
    if key is None or ctx.function_node is None:
        return False
    return any(
        isinstance(call.func, cst.Attribute) and call.func.attr.value in knowledge.COUNTING_METHODS
        and call.args and call.args[0].value.deep_equals(key)
        for call in find_all(ctx.function_node, (cst.Call,))
    )


def _takes_lock(canonical, _method) -> bool:
    return match_api(canonical) is not None


class _LockRule(Rule):
    def is_relevant(self, unit) -> bool:
        # ``_lock_at``: only a call whose canonical name is a lock API's takes a lock
        return calls_any(unit, _takes_lock)

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        api, read = _lock_at(node, ctx)
        if read is not None:
            self.check(node, api, read, ctx)

    def check(self, node, api, read, ctx: FileContext) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


@register
class LockTtlShorterThanRuntime(_LockRule):
    code = "BG501"
    name = "lock-ttl-shorter-than-runtime"
    severity = Severity.ERROR
    reads = ("call_graph", "jobs", "lock_defaults", "locks")
    summary = "A lock's TTL is shorter than the measured runtime (or declared limit) of the job that holds it."

    def check(self, node, api, read, ctx: FileContext) -> None:
        key, ttl, note, auto_renewal = read
        if not isinstance(ttl, float) or auto_renewal:
            return  # no expiry (BG502), unknown (never guessed), or renewed in the background
        self.check_ttl(node, api.label, key, ttl, note, holding_jobs(ctx.index, ctx.function_qualname), ctx)

    def is_relevant(self, unit) -> bool:
        functions = unit.summary.functions
        return super().is_relevant(unit) or any(site.lock_api is None and site.function in functions for site in unit.index.locks)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: FileContext) -> None:
        """celery_once: ``@app.task(base=QueueOnce, once={...})`` locks the task itself."""
        qualname = ctx.function_qualname
        for site in ctx.index.locks:
            if site.lock_api is None and site.function == qualname and isinstance(site.ttl, float):
                anchor = next((d for d in node.decorators if _has_once_base(d, ctx)), node.name)
                self.check_ttl(anchor, site.api, site.key, site.ttl, site.ttl_note, site.jobs, ctx)

    def check_ttl(self, node, label, key, ttl, note, jobs, ctx: FileContext) -> None:
        runtime, matched = runtime_for(ctx.index.runtimes or {}, jobs, key)
        margin = self.config.lock_ttl_margin
        name = f"`{key}`" if key else "this lock"
        short = f"Lock `{clip(key, 32)}`" if key else "This lock"
        holder = next((job for job in jobs if matched in (job.function, job.name, job.target)), jobs[0] if jobs else None)
        who = f" held by `{holder.name}`" if holder else ""
        if runtime is not None and ttl < runtime.seconds * margin:
            needed = f"{runtime.seconds:g} s" + (f" x margin {margin:g} = {runtime.seconds * margin:g} s" if margin != 1 else "")
            ctx.report(
                self,
                node,
                f"{short} expires after {ttl:g} s, but {_job_label(holder)} runs {runtime.seconds:g} s (measured)",
                f"Lock {name}{who} expires after {ttl:g} s ({label}, {note}), but the job runs {needed} (measured "
                f"{runtime.seconds:g} s in {runtime.source}): the lock expires mid-run and another replica starts the "
                "same job on top of this one. Make the TTL longer than the longest run, or renew it while the job runs.",
            )
            return
        limit, limit_text = declared_limit(jobs)
        if limit is not None and ttl < limit:
            holder = next((job for job in jobs if declared_limit([job]) == (limit, limit_text)), holder)
            who = f" held by `{holder.name}`" if holder else ""
            ctx.report(
                self,
                node,
                f"{short} expires after {ttl:g} s, but {_job_label(holder)} may run up to {limit:g} s",
                f"Lock {name}{who} expires after {ttl:g} s ({label}, {note}), but the job may run up to {limit:g} s "
                f"(declared {limit_text}): a run that uses its limit outlives the lock, and another replica starts the "
                "same job on top of it. Make the TTL longer than the job's limit.",
            )


def _job_label(job) -> str:
    return f"`{short_name(job.name, 28)}`" if job else "the job"


def _has_once_base(decorator: cst.Decorator, ctx: FileContext) -> bool:
    """``@app.task(base=QueueOnce, ...)``: the decorator that makes the task a celery_once task."""
    call = decorator.decorator
    if not isinstance(call, cst.Call):
        return False
    return any(
        arg.keyword is not None and arg.keyword.value == "base" and ctx.resolve(arg.value) in knowledge.CELERY_ONCE_BASES
        for arg in call.args
    )


@register
class LockWithoutTtl(_LockRule):
    code = "BG502"
    name = "lock-without-ttl"
    severity = Severity.ERROR
    reads = ("lock_defaults", "locks")
    summary = "A distributed lock acquired with no expiry: a killed holder blocks the job for ever."

    def check(self, node, api, read, ctx: FileContext) -> None:
        key, ttl, note, _renewal = read
        if ttl != NEVER:
            return
        name = f"Lock `{clip(key, 40)}`" if key else "This lock"
        ctx.report(
            self,
            node,
            f"{name} never expires ({clip(f'{api.label}, {note}', 56)})",
            f"The lock is taken with no expiry ({api.label}, {note}): if the process holding it is killed (a deploy's "
            "SIGKILL, an OOM), nothing ever releases it and the job never runs again until someone deletes the key by "
            "hand. Give it a TTL longer than the longest run.",
        )


@register
class LockReleasedWithoutOwnershipCheck(Rule):
    code = "BG503"
    preview = True  # precision on real projects below the bar: see scripts/ecosystem/report.md
    name = "lock-released-without-ownership-check"
    severity = Severity.ERROR
    reads = ("locks", "shutdown")
    summary = "A lock's key is deleted directly (`redis.delete(key)`), releasing whoever holds it now."

    def is_relevant(self, unit) -> bool:
        return bool(unit.index.locks) and calls_any(unit, lambda _canonical, method: method in knowledge.KEY_DELETES)

    def visit_Call(self, node: cst.Call, ctx: FileContext) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in knowledge.KEY_DELETES or not node.args:
            return
        if ctx.index.resolve_function(ctx.resolve_call(node)):
            return  # a project class's own delete(): not a key store's
        if receiver_kind(node, ctx) not in (None, "redis client"):
            return  # known to be something else than a key store
        if _under_a_clock_check(ctx):
            return  # deleted only while the deadline taken with the TTL has not passed: still ours
        keys = []
        positional = [arg for arg in node.args if arg.keyword is None]
        if func.attr.value == "hdel":
            positional = positional[1:]  # hdel(name, *fields): the fields are the keys
        for arg in positional:
            if not arg.star:
                ir = ctx.to_ir(arg.value)
                keys.append(key_text(ctx.index.fold(ir), ir))
        for key in keys:
            site = next((s for s in ctx.index.locks if any(keys_match(key, k) for k in s.keys)), None)
            if site is None or _under_an_owner_check(key, ctx):
                continue
            in_shutdown = ctx.function_qualname in ctx.index.shutdown.shutdown_code
            where = " in a shutdown path" if in_shutdown else ""
            ctx.report(
                self,
                node,
                f"`{func.attr.value}()` of lock key `{clip(key, 36)}`{where} releases it without checking the owner",
                f"Deleting the key `{key}` releases the lock whoever holds it: if it expired and another replica took "
                "it, this deletes that replica's lock and a third run starts on top of both. Release through the lock "
                "object (`lock.release()` compares the owner token), or with a compare-and-delete script.",
            )
            return


def _under_an_owner_check(key: str, ctx: FileContext) -> bool:
    """Is the call guarded by a test that compares the key's value with ``==``, as in
    ``if cache.get(lock_key) == my_token: cache.delete(lock_key)``? The holder deletes the key
    only while it still holds its own token (a short window remains between the read and the
    delete; the token check is what the rule asks for)."""
    return _guarded_by(ctx, lambda test: any(_compares_the_key(c, key, ctx) for c in find_all(test, (cst.Comparison,))))


def _compares_the_key(comparison: cst.Comparison, key: str, ctx: FileContext) -> bool:
    if not any(isinstance(target.operator, cst.Equal) for target in comparison.comparisons):
        return False
    for side in (comparison.left, *(target.comparator for target in comparison.comparisons)):
        if isinstance(side, cst.Call) and isinstance(side.func, cst.Attribute) and side.func.attr.value in knowledge.KEY_READS and side.args:
            ir = ctx.to_ir(side.args[0].value)
            if keys_match(key, key_text(ctx.index.fold(ir), ir)):
                return True
    return False


def _under_a_clock_check(ctx: FileContext) -> bool:
    """Is the call guarded by a test that reads a clock, as in ``if time.monotonic() < deadline:
    r.delete(key)``? A holder that deletes its key only while the deadline computed from the TTL
    has not passed deletes its own lock."""
    return _guarded_by(ctx, lambda test: _reads_a_clock(test, ctx))


def _guarded_by(ctx: FileContext, holds) -> bool:
    """Is the node being visited in the body (not the ``else``) of an ``if`` / ``elif`` of the same
    function whose test ``holds``? A delete in the ``else`` runs exactly when the guard failed."""
    chain = ctx.ancestors
    for position in range(len(chain) - 2, -1, -1):
        node = chain[position]
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return False
        if isinstance(node, cst.If) and chain[position + 1] is node.body and holds(node.test):
            return True
    return False


def _reads_a_clock(test: cst.BaseExpression, ctx: FileContext) -> bool:
    return any(ctx.resolve_call(call) in knowledge.CLOCK_CALLS for call in find_all(test, (cst.Call,)))
