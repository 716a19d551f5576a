"""The project-wide facts digest: every fact a rule can consult beyond the modules a file imports.

A file's cached result stays valid while its own bytes, the interfaces of the project modules
it imports and this digest are unchanged (see the result keys in the run): so every
cross-file question a rule asks must be answered from something this digest covers.
"""

from __future__ import annotations

from bgcheck.load import serial
from bgcheck.load.cache import digest
from bgcheck.model.project import ProjectIndex
from bgcheck.model.shutdown import background_starts, entry_scopes, hands_over_to_framework, installs_sigterm_handler, timed_waits


def facts_digest(index: ProjectIndex) -> str:
    """A digest of every project-wide fact a rule can consult beyond the modules a file imports."""
    model = index.shutdown
    entries = []
    for entry in model.entry_points:
        scopes, modules = entry_scopes(index, entry)
        entries.append(
            (entry.kind, entry.module, entry.function, sorted(scopes), background_starts(index, scopes),
             hands_over_to_framework(index, scopes), installs_sigterm_handler(model, scopes, modules))
        )
    job_code = index.job_code
    stop_targets = sorted(t for t in index.all_call_targets() if t.rsplit(".", 1)[-1] in ("shutdown", "close", "join", "terminate"))
    facts = (
        sorted(
            (name, sorted((j.kind, j.framework, j.name, j.target, repr(j.options), repr(sorted(j.limits.items())),
                           j.schedule.describe() if j.schedule else "", j.per_process, j.via) for j in jobs))
            for name, jobs in index.job_roots.items()
        ),
        sorted(job_code.items()),
        sorted(index.reached_from(frozenset({"scheduled", "queued"})).items()),
        sorted((name, index.function(name).calls, index.function(name).endless_loop) for name in job_code if index.function(name)),
        sorted((r.function, r.how, r.after_yield_only) for r in model.roots.values()),
        sorted(model.shutdown_code.items()),
        sorted((root, [(w.function, w.text, w.seconds) for w in timed_waits(index, index.reachable([root]))]) for root in model.roots),
        entries,
        sorted(repr(sorted(site.to_dict().items())) + repr([j.name for j in site.jobs]) for site in index.locks),
        sorted((name, [(link.name, link.path, link.line) for link in chain]) for name, chain in index.money.chains.items()),
        sorted((k, repr(v.value), v.where) for k, v in (index.celery_config.settings.items() if index.celery_config else ())),
        sorted(index.on_commit_callbacks),
        sorted(index.transaction_helpers),
        sorted(index.transaction_decorators),
        index.atomic_requests,
        sorted(index.views.items()),
        index.transactions.facts(),
        stop_targets,
    )
    # Facts that reach a file from any module, imported by it or not. Puts into a queue (BG301: a
    # queue fed from a stream loop): each item and loop in canonical form (serial.py), and how the
    # index judges them. Globals and attributes passed on as values, and every call target (BG401:
    # an executor that something somewhere uses).
    table = serial.IRTable()
    puts = sorted(
        (path, scope, table.add(item), index.is_sentinel(item), _loop_key(loop, table), index.is_stream_loop(loop, path))
        for summary in index.modules.values()
        for path, item, loop, scope in getattr(summary, "queue_puts", ())
    )
    passed = sorted({path for summary in index.modules.values() for path in getattr(summary, "passed_refs", ())})
    facts += (puts, table.rows, passed, sorted(index.all_call_targets()))
    # Which daemon threads are joined anywhere (BG203: a daemon consumer nobody joins holds no stop).
    facts += (sorted(index.thread_join_facts()),)
    # repr, not pickle: a pickle's bytes depend on which equal strings are one object
    return digest(repr(facts).encode("utf-8", "surrogatepass"))


def _loop_key(loop, table) -> str:
    """A recorded loop (None, "while", ..., ("for", IR)) as one comparable string."""
    if isinstance(loop, tuple):
        return f"for:{table.add(loop[1])}"
    return repr(loop)
