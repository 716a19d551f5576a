"""Project facts: what a file's findings can depend on beyond the file and the modules it imports.

A cached result stays valid while three things are unchanged: the file's own bytes, the
interfaces of the project modules it imports (names resolve through them: ``canonical``,
``fold``, a function's flags), and the *project facts* its rules read: questions answered from
the whole project (which functions are job code, the Celery settings, the locks, the money
chains...). Each rule declares the facts it reads (``Rule.reads``, names of ``FACTS``); the cache
key digests the value of every fact an enabled rule declares. ``MEMBER_FACTS`` says which fact
each member of the index is, and ``NAME_MEMBERS`` which members only resolve names: a test runs
every rule with an index that records what it reads and fails on a fact the rule did not
declare, or on a member that is in neither table.
"""

from __future__ import annotations

from typing import Callable, Iterable, NamedTuple, Optional

from bgcheck import knowledge
from bgcheck.load import serial
from bgcheck.load.cache import digest
from bgcheck.model.project import ProjectIndex
from bgcheck.model.locks import configured_defaults
from bgcheck.model.shutdown import background_starts, entry_scopes, hands_over_to_framework, installs_sigterm_handler, timed_waits

class Pos(NamedTuple):
    """A position in another file, inside a fact's value. Digested as its order among the fact's
    positions in the same file (``_ranked``): a line added or removed above a job moves every
    position below it, not their order, and leaves the digest as it was. The results that show a
    moved position (a note at a job's ``def``) are keyed on that file's summary too
    (load/cache_keys.py: ``foreign_files``), so they, and only they, are checked again."""

    path: str
    line: int
    column: int = 0


def _ranked(value: object) -> object:
    """``value`` with each ``Pos`` replaced by (path, its rank among the value's positions in that
    path, whether it is known): what a rule can learn from positions in other files, their order."""
    found: dict[str, set] = {}

    def collect(item) -> None:
        if isinstance(item, Pos):
            found.setdefault(item.path, set()).add((item.line, item.column))
        elif isinstance(item, (tuple, list)):
            for part in item:
                collect(part)

    collect(value)
    ranks = {path: {spot: rank for rank, spot in enumerate(sorted(spots))} for path, spots in found.items()}

    def substitute(item):
        if isinstance(item, Pos):
            return ("pos", item.path, ranks[item.path][(item.line, item.column)], bool(item.line))
        if isinstance(item, (tuple, list)):
            return tuple(substitute(part) for part in item)
        return item

    return substitute(value)


# The job kinds a rule asks ``reached_from`` about (BG2xx: jobs expected to run to their end).
RUN_TO_END_KINDS = frozenset({"scheduled", "queued"})


def _jobs(index: ProjectIndex) -> object:
    return sorted(
        (j.function or "", j.kind, j.framework, j.name, j.target, Pos(j.path or "", j.line or 0), j.registered_in, repr(j.options),
         repr(sorted(j.limits.items())), j.schedule.describe() if j.schedule else "", j.per_process, j.via)
        for j in index.jobs
    )


def _job_code(index: ProjectIndex) -> object:
    job_code = index.job_code
    return (
        sorted(job_code.items()),
        sorted(index.reached_from(RUN_TO_END_KINDS).items()),
        sorted((name, index.function(name).calls, index.function(name).endless_loop) for name in job_code if index.function(name)),
    )


def _job_contexts(index: ProjectIndex) -> object:
    """The constants job code hands each function it reaches (a call a guard on them rules out is not made)."""
    return sorted((name, sorted((sorted(known), root) for known, root in index.job_contexts(name).items())) for name in index.job_code)


def _settings(index: ProjectIndex) -> object:
    """What ``settings.X`` holds (ProjectIndex.setting) for every name the settings modules bind,
    themselves or through the project modules they star-import."""
    return [
        (f"{path}.{name}", repr(index.setting(f"{path}.{name}")))
        for path, marker in knowledge.SETTINGS_OBJECTS.items()
        for name in index.settings_names(marker)
    ]


def _call_graph(index: ProjectIndex) -> object:
    """What every project function calls: the targets as written (a durable write, a lock taken
    in a callee) and the project functions they resolve to (``callees``, ``reachable``)."""
    return sorted((name, func.calls, index.callees(name)) for name, (_summary, func) in index.functions.items())


def _call_sites(index: ProjectIndex) -> object:
    """Where each function a note can point into is defined, and where it makes each call. Notes
    follow call chains from a job's function, a shutdown hook or an entry point, or from where a
    transaction opens down to a publish (BG604), so only code on those counts: an edit that moves
    lines elsewhere (a view, a helper no job calls) changes nothing."""
    scopes = set(index.job_code) | set(index.shutdown.shutdown_code)
    for entry in index.shutdown.entry_points:
        scopes |= entry_scopes(index, entry)[0]
    model = index.transactions
    scopes |= {step.function for steps in model.runs_inside.values() for step in steps} | set(model.runs_inside)
    scopes |= {function for chain, _label, _target in model.publishes.values() for function in chain} | set(model.publishes)
    functions = []
    for name in sorted(scopes):
        if name in index.functions:
            summary, func = index.functions[name]
            functions.append((name, Pos(summary.path, func.line), tuple(Pos(summary.path, *site) for site in func.call_sites)))
    modules = [
        (name, tuple(Pos(index.modules[name].path, *site) for site in index.modules[name].module_call_sites))
        for name in sorted(scopes) if name in index.modules
    ]
    return functions, modules


def _shutdown(index: ProjectIndex) -> object:
    model = index.shutdown
    entries = []
    for entry in model.entry_points:
        scopes, modules = entry_scopes(index, entry)
        entries.append(
            (entry.kind, entry.module, entry.function, sorted(scopes), background_starts(index, scopes),
             hands_over_to_framework(index, scopes), installs_sigterm_handler(model, scopes, modules))
        )
    return (
        sorted((r.function, r.how, r.after_yield_only) for r in model.roots.values()),
        sorted(model.atexit_only),
        sorted(model.shutdown_code.items()),
        sorted((root, [(w.function, w.text, w.seconds) for w in timed_waits(index, index.reachable([root]))]) for root in model.roots),
        entries,
        sorted((scope, sorted(names)) for scope, names in model.other_signals.items()),
    )


def _locks(index: ProjectIndex) -> object:
    return sorted(
        (repr(sorted((k, v) for k, v in site.to_dict().items() if k != "line")), Pos(site.path, site.line), [j.name for j in site.jobs])
        for site in index.locks
    )


def _money(index: ProjectIndex) -> object:
    return sorted((name, [(link.name, Pos(link.path, link.line, link.column)) for link in chain]) for name, chain in index.money.chains.items())


def _celery_config(index: ProjectIndex) -> object:
    return sorted((k, repr(v.value), v.where) for k, v in index.celery_config.settings.items())


def _execution(index: ProjectIndex) -> object:
    return index.execution.cache_facts()


def _transactions(index: ProjectIndex) -> object:
    return (
        sorted(index.on_commit_callbacks), sorted(index.transaction_helpers), sorted(index.transaction_decorators),
        index.atomic_requests, sorted(index.views.items()), sorted(index.hooks_in_transaction.items()), sorted(index.receivers_left_out.items()),
        index.transactions.facts(),
    )


def _call_targets(index: ProjectIndex) -> object:
    return sorted(index.all_call_targets())


def _queue_puts(index: ProjectIndex) -> object:
    """Each put into a queue anywhere (BG301: a queue fed from a stream loop), its item and loop
    in canonical form (serial.py), and how the index judges them."""
    table = serial.IRTable()
    puts = sorted(
        (path, scope, table.add(item), index.is_sentinel(item), _loop_key(loop, table), index.is_stream_loop(loop, path))
        for summary in index.modules.values()
        for path, item, loop, scope in summary.queue_puts
    )
    return puts, table.rows


def _loop_key(loop, table: serial.IRTable) -> str:
    """A recorded loop (None, "while", ..., ("for", IR)) as one comparable string."""
    if isinstance(loop, tuple):
        return f"for:{table.add(loop[1])}"
    return repr(loop)


def _message_callbacks(index: ProjectIndex) -> object:
    return sorted(index.message_callbacks())


def _passed_refs(index: ProjectIndex) -> object:
    return sorted(index.passed_refs())


def _lock_defaults(index: ProjectIndex) -> object:
    """The lock TTL defaults the project configures (Django CACHES, sherlock.configure)."""
    return sorted((label, repr(value)) for label, value in configured_defaults(index).items())


def _default_timeouts(index: ProjectIndex) -> object:
    """The libraries whose calls the project bounds process-wide (a patched send with a default
    timeout, a socket default), and why the settings-bounded ones are bounded."""
    return sorted(index.default_timeouts()), sorted(index.settings_bounds().items())


def _never_suspending(index: ProjectIndex) -> object:
    return sorted(index.never_suspending)


def _losing_io(index: ProjectIndex) -> object:
    """Which coroutines let an error of library I/O reach their task, and what a call may run."""
    return sorted(index.losing_io.items()), index.coroutine_names


def _prompts(index: ProjectIndex) -> object:
    return sorted(index.prompting_functions)


def _threads(index: ProjectIndex) -> object:
    """Which threads are kept where, what they run, and whether anything joins them."""
    return sorted(index.thread_join_facts())


# fact -> its value (anything with a deterministic repr), computed from the model that owns it
FACTS: dict[str, Callable[[ProjectIndex], object]] = {
    "jobs": _jobs,  # every job: kind, framework, options, limits, schedule, where it is registered
    "job_code": _job_code,  # which functions run as (which) job's code, and what job code calls
    "job_contexts": _job_contexts,  # the constants job code hands each function it reaches
    "settings": _settings,  # what settings.X holds, where every settings module binds X to one value
    "call_graph": _call_graph,  # what every function calls: targets as written, project functions they resolve to
    "call_sites": _call_sites,  # where code that notes can point into is defined and makes its calls
    "execution": _execution,  # which thread a function runs on, which run only as tasks of their own
    "shutdown": _shutdown,  # shutdown hooks, code they reach and its waits, entry points
    "locks": _locks,
    "lock_defaults": _lock_defaults,
    "money": _money,
    "celery_config": _celery_config,
    "transactions": _transactions,  # on_commit callbacks, transaction helpers/decorators, ATOMIC_REQUESTS views, framework hooks, publishes through calls
    "call_targets": _call_targets,  # every call target written anywhere (BG401: an executor something uses)
    "queue_puts": _queue_puts,
    "passed_refs": _passed_refs,  # globals and attributes passed on as values
    "message_callbacks": _message_callbacks,  # functions a message library calls per message (BG301)
    "threads": _threads,
    "default_timeouts": _default_timeouts,
    "never_suspending": _never_suspending,  # async functions that never let the loop run other work
    "losing_io": _losing_io,  # async functions whose library I/O errors reach their task (BG602)
    "prompts": _prompts,  # functions that wait for the user at a terminal prompt
}

# The facts whose values hold positions (``Pos``); tests/test_facts.py checks that a line added at
# the top of every file changes no fact's digest.
POSITIONED = frozenset({"jobs", "call_sites", "locks", "money"})

# Members of the index that are project facts: member -> the facts it reads.
MEMBER_FACTS: dict[str, tuple[str, ...]] = {
    "jobs": ("jobs",),
    "job_roots": ("jobs",),
    "job_code": ("job_code",),
    "is_job_code": ("job_code",),
    "reached_from": ("jobs", "job_code"),
    "callees": ("call_graph",),
    "reachable": ("call_graph",),
    "call_path": ("call_graph",),
    "call_site": ("call_sites",),
    "target_site": ("call_sites",),
    "execution": ("execution",),
    "shutdown": ("shutdown",),
    "runtimes": (),  # measured runtimes are part of every key already (engine's static key)
    "locks": ("locks",),
    "money": ("money",),
    "celery_config": ("celery_config",),
    "on_commit_callbacks": ("transactions",),
    "transaction_helpers": ("transactions",),
    "transaction_decorators": ("transactions",),
    "atomic_requests": ("transactions",),
    "views": ("transactions",),
    "hooks_in_transaction": ("transactions",),
    "receivers_left_out": ("transactions",),
    "transactions": ("transactions",),
    "all_call_targets": ("call_targets",),
    "queue_puts": ("queue_puts",),
    "passed_refs": ("passed_refs",),
    "message_callbacks": ("message_callbacks",),
    "thread_join_facts": ("threads",),
    "is_unjoined_daemon_thread_code": ("threads", "jobs", "job_code"),
    "runs_only_as": ("jobs", "job_code"),
    "job_contexts": ("job_contexts",),
    "jobs_making": ("job_contexts",),
    "setting": ("settings",),
    "settings_modules": ("settings",),
    "settings_names": ("settings",),
    "thread_is_daemon": ("threads",),
    "unknown_receivers": ("call_targets",),
    "default_timeouts": ("default_timeouts",),
    "settings_bounds": ("default_timeouts",),
    "never_suspending": ("never_suspending",),
    "losing_io": ("losing_io",),
    "task_losing_io": ("losing_io",),
    "coroutine_names": ("losing_io",),
    "coroutine_candidates": ("losing_io",),
    "prompting_functions": ("prompts",),
}

# Members that resolve names through the modules a file imports (covered by their interfaces),
# or look one module, function or class up by name.
NAME_MEMBERS = frozenset({
    "modules", "functions", "classes", "function", "canonical", "resolve_function", "fold", "lookup_constant",
    "binding", "constructed", "receiver_type", "api_base", "mro", "class_bases", "queue_is_unbounded", "is_sentinel",
    "reads_a_clock", "keeps_its_errors", "is_stream_loop",
})


def fact_values(index: ProjectIndex, names: Iterable[str]) -> list[tuple[str, object]]:
    """(fact, value) for each named fact, in the given order."""
    return [(name, FACTS[name](index)) for name in names]


def fact_digest(index: ProjectIndex, name: str) -> str:
    """A digest of one project fact's value."""
    # repr, not pickle: a pickle's bytes depend on which equal strings are one object
    value = FACTS[name](index)
    if name in POSITIONED:
        value = _ranked(value)
    return digest(name, repr(value).encode("utf-8", "surrogatepass"))


def facts_digest(index: ProjectIndex, names: Iterable[str], known: Optional[dict] = None) -> str:
    """A digest of these project facts (those the enabled rules declare: rules.facts_read), part of
    each file's result key. ``known``: fact name -> ``fact_digest`` already computed on this index
    (model/persist.py keeps them with the models); the others are computed and added to it."""
    known = {} if known is None else known
    for name in sorted(set(names)):
        if name not in known:
            known[name] = fact_digest(index, name)
    return digest("facts", [(name, known[name]) for name in sorted(set(names))])
