"""The job model: which functions run as background work, how and when.

"Job code" in the rule catalog is a job's function and everything it
reaches through calls. This module recognises jobs once per run, from the
project index and the framework tables in ``bgcheck.knowledge``
(``JOB_DECORATORS``, ``JOB_CALLS``); the index holds them (``index.jobs``,
``index.job_roots``, set by ``bgcheck.model.build``). Later models (locks, money) attach
their facts to these jobs.

Each job records its kind, framework, where it is defined and registered,
its schedule (an interval in seconds where it folds, cron fields otherwise)
and its declared limits (in seconds).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Optional

from bgcheck import knowledge
from bgcheck.syntax.ir import IR, UNKNOWN, UNKNOWN_IR, as_call, as_seconds, attribute, call_name, callee_name, dict_entries, ref_name, seq_items, with_call_targets
from bgcheck.model.project import ProjectIndex, breadth_first

_UNIT_SECONDS = {
    "second": 1.0,
    "seconds": 1.0,
    "minute": 60.0,
    "minutes": 60.0,
    "hour": 3600.0,
    "hours": 3600.0,
    "day": 86400.0,
    "days": 86400.0,
    "week": 604800.0,
    "weeks": 604800.0,
    **{day: 604800.0 for day in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")},
}
_INTERVAL_KWARGS = {"weeks": 604800.0, "days": 86400.0, "hours": 3600.0, "minutes": 60.0, "seconds": 1.0}
_DJANGO_Q_TYPES = {"I": None, "H": 3600.0, "D": 86400.0, "W": 604800.0, "BW": 1209600.0, "M": 2592000.0, "Q": 7776000.0, "Y": 31536000.0}
_DJANGO_Q_CONSTANTS = {"MINUTES": "I", "HOURLY": "H", "DAILY": "D", "WEEKLY": "W", "BIWEEKLY": "BW", "MONTHLY": "M", "QUARTERLY": "Q", "YEARLY": "Y", "CRON": "C", "ONCE": "O"}


@dataclass(frozen=True)
class Schedule:
    kind: str  # "interval" | "cron" | "once" | "unknown"
    seconds: Optional[float] = None  # for intervals
    cron: Optional[str] = None  # "*/5 * * * *" or "hour=3" style fields
    note: str = ""  # what a reader could get wrong, e.g. "every minute of hour 3"

    def describe(self) -> str:
        if self.kind == "interval" and self.seconds is not None:
            text = f"every {_duration(self.seconds)}"
        elif self.kind == "cron":
            text = f"cron {self.cron}"
        elif self.kind == "once":
            text = "once"
        else:
            text = "unknown"
        return f"{text} ({self.note})" if self.note else text

    def to_dict(self) -> dict:
        return {"kind": self.kind, "seconds": self.seconds, "cron": self.cron, "text": self.describe()}


@dataclass(frozen=True)
class Job:
    function: Optional[str]  # qualified name of the project function that runs, if it resolves
    target: str  # how it is registered (a qualified name, "pkg.mod:func", a task name)
    name: str  # the name the framework knows it by
    kind: str  # "scheduled" | "queued" | "thread" | "in-process task" | "worker loop"
    framework: str
    path: str  # file defining the function (or registering it, when it does not resolve)
    line: int  # line of the function's def (0 when unknown)
    registered_in: str  # file where the job is registered
    schedule: Optional[Schedule] = None
    limits: dict = field(default_factory=dict)  # "time_limit" -> seconds, "acks_late" -> bool, ...
    options: dict = field(default_factory=dict)  # option name -> IR, as written
    per_process: bool = False  # runs in every process (and replica) that registers it
    via: str = ""  # how bgcheck recognised it: "decorator celery.Celery().task", "wrapper proj.jobs.periodic -> ..."

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "function": self.function,
            "target": self.target,
            "kind": self.kind,
            "framework": self.framework,
            "schedule": self.schedule.to_dict() if self.schedule else None,
            "limits": dict(sorted(self.limits.items())),
            "runs_in_every_process": self.per_process,
            "path": self.path,
            "line": self.line,
            "registered_in": self.registered_in,
            "via": self.via,
        }


def _duration(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{seconds / size:g} {unit}"
    return f"{seconds:g} s"


class _JobFinder:
    def __init__(self, index: ProjectIndex, job_decorators: tuple = ()) -> None:
        self.index = index
        self.jobs: list[Job] = []
        self.job_decorators = tuple(job_decorators)  # configuration key ``job-decorators``
        # jobs registered from inside a function with a function bgcheck cannot name (a parameter):
        # scope qualname -> those jobs. A project decorator that does this is a job wrapper.
        self.unnamed_in_scope: dict[str, list[Job]] = {}

    # --- helpers --------------------------------------------------------------
    def fold(self, value: Optional[IR]):
        """Fold with call targets followed to their canonical names: a module constant's IR names an
        imported callable through the module (``proj.settings.timedelta``), and folding only knows
        ``datetime.timedelta``."""
        return self.index.fold(with_call_targets(value, self.index.canonical)) if value is not None else UNKNOWN

    def function_of(self, value: Optional[IR]) -> tuple[Optional[str], str]:
        """(project function qualname or None, how it is written) for a job's function argument."""
        if value is None:
            return None, "?"
        path = ref_name(value)
        if path is not None:
            return self.named(path)
        if value[0] == "lambda":  # ``target=lambda: self.poll(url)`` runs poll
            return self.named(call_name(value[1]) or "?")
        if call_name(value):
            call = as_call(value)
            target = call.target
            if (target in knowledge.PARTIALS or (self.index.canonical(target) or target) in knowledge.THREAD_RUNNERS) and call.args:
                return self.function_of(call.first_arg)  # ``create_task(asyncio.to_thread(f, x))`` runs f
            if (self.index.canonical(target) or target) in knowledge.CELERY_SIGNATURE_BY_NAME:
                task_name = self.fold(call.first_arg if call.args else call.keyword("name"))
                if not isinstance(task_name, str):
                    return None, "?"
                task = self.celery_task_named(task_name)
                return (task.function if task else None), task_name
            for method in knowledge.CELERY_SIGNATURE_METHODS:
                if target.endswith("." + method):
                    return self.function_of(("ref", target[: -len(method) - 1]))
            # a coroutine object: create_task(worker()) runs worker
            return self.named(target)
        folded = self.fold(value)
        if isinstance(folded, str):
            dotted = folded.replace(":", ".")
            if dotted in self.index.functions:
                return dotted, folded
            return None, folded
        return None, "?"

    def named(self, path: str) -> tuple[Optional[str], str]:
        """(the project function ``path`` names, or the one method of that name on an object bgcheck
        cannot type; how it is written) for a reference or a call."""
        return self.index.resolve_function(path) or self.method_of_untyped(path), self.index.canonical(path) or path

    def method_of_untyped(self, path: str) -> Optional[str]:
        """``Thread(target=plugin.update_wrapper)`` with ``plugin`` taken from a dict of plugins:
        the one method of that name in the project, when exactly one class defines it (the rules
        take the same reading of a dropped task's coroutine). A bare name (a parameter) is not one,
        nor a method subclasses override (which of them runs is not known)."""
        if "." not in path.lstrip("?"):
            return None
        qualname = self.index.only_function_named(path)
        func = self.index.function(qualname) if qualname is not None else None
        return qualname if func is not None and func.class_qualname is not None and not self.index.overridden(func) else None

    def makes_a_coroutine(self, value: IR, function: Optional[str]) -> bool:
        """Is ``create_task(value)``'s task the body of ``function``: the value is a call, and of a
        coroutine function (``async def``, or a generator-based one), or of one the project does not
        define? A plain project function called there only returned an awaitable (``q.get()``
        returning a future): it ran before the task, and what the task runs is not known; a bare
        name, or an instance of a class (a parameter annotated ``Awaitable``), is an object made elsewhere."""
        target = call_name(value)
        if not target:
            return False
        if (self.index.canonical(target) or target) in knowledge.THREAD_RUNNERS:
            return function is not None  # the task's body is the function run in a thread
        entry = self.index.functions.get(function or "")
        if entry is not None:
            return entry[1].is_async or entry[1].is_generator
        made = self.index.canonical(target) or target
        return made not in self.index.classes and made not in knowledge.AWAITABLE_TYPES  # ``x: Awaitable``: an instance

    def location(self, qualname: Optional[str], fallback_path: str) -> tuple[str, int]:
        entry = self.index.functions.get(qualname or "")
        if entry is None:
            return fallback_path, 0
        return entry[0].path, entry[1].line

    def limits(self, source: knowledge.JobSource, kwargs: dict) -> dict:
        limits: dict = {}
        for option, limit, factor in source.limits:
            if option not in kwargs:
                continue
            value = self.fold(kwargs[option])
            if factor is None:
                if isinstance(value, bool):
                    limits[limit] = value
            else:
                seconds = as_seconds(value)
                if seconds is not None:
                    limits[limit] = seconds * factor
        return limits

    def add(
        self,
        source: knowledge.JobSource,
        function: Optional[str],
        target: str,
        registered_in: str,
        args=(),
        kwargs=None,
        name=None,
        schedule=None,
        call_args=None,
        via: str = "",
        options: Optional[dict] = None,
        limits: Optional[dict] = None,
    ) -> Job:
        """Record a job. ``args``: the positional arguments after the function;
        ``call_args``: all of them (default: ``args``); ``via``: how it was recognised;
        ``options`` and ``limits``: what it has instead of those read from ``kwargs``."""
        kwargs = dict(kwargs or {})
        call_args = args if call_args is None else call_args
        if name is None:
            name = self.explicit_name(source, call_args, kwargs)
        path, line = self.location(function, registered_in)
        kind = source.kind
        framework = source.framework
        if source.periodic_option and source.periodic_option in kwargs:
            kind = "scheduled"
            framework = f"{framework} (periodiq)"
            schedule = schedule or self.periodiq_schedule(kwargs[source.periodic_option])
        if schedule is None and source.schedule:
            schedule = self.read_schedule(source.schedule, args, kwargs, call_args)
        job = Job(
            function=function,
            target=target,
            name=name or function or target,
            kind=kind,
            framework=framework,
            path=path,
            line=line,
            registered_in=registered_in,
            schedule=schedule,
            limits=self.limits(source, kwargs) if limits is None else limits,
            options=kwargs if options is None else options,
            per_process=source.per_process,
            via=via,
        )
        self.jobs.append(job)
        return job

    def explicit_name(self, source: knowledge.JobSource, call_args: tuple, kwargs: dict) -> Optional[str]:
        """The id or name the registration gives the job (``add_job(f, id="x")``), if any."""
        candidates = [kwargs.get(option) for option in source.name_options]
        if source.name_pos is not None and source.name_pos < len(call_args):
            candidates.insert(0, call_args[source.name_pos])
        for candidate in candidates:
            value = self.fold(candidate) if candidate is not None else None
            if isinstance(value, str) and value:
                return value
        return None

    # --- schedules ----------------------------------------------------------
    def read_schedule(self, reader: str, args: tuple, kwargs: dict, call_args: tuple = ()) -> Schedule:
        """``args``: the positional arguments after the function; ``call_args``: all of them."""
        if reader == "apscheduler":
            return self.apscheduler_trigger(args[0] if args else kwargs.get("trigger"), kwargs)
        if reader == "seconds-kw":
            return _interval(self.fold(kwargs.get("seconds")))
        if reader == "interval-kw":
            return _interval(self.fold(kwargs.get("interval")))
        if reader == "cron-kw":
            return _cron_string(self.fold(kwargs.get("cron")))
        if reader == "cron-arg":  # the cron string comes first, before the function: cron("0 4 * * *", func=f)
            first = call_args[0] if call_args else None
            return _cron_string(self.fold(first if first is not None else kwargs.get("spec") or kwargs.get("cron_string")))
        if reader == "crontab-arg":
            return self.crontab(args[0] if args else kwargs.get("validate_datetime"))
        if reader == "schedule-arg":
            return self.schedule_chain(args[0] if args else None)
        if reader == "rq-cron":
            if "cron" in kwargs:
                return _cron_string(self.fold(kwargs["cron"]))
            return _interval(self.fold(kwargs.get("interval")))
        if reader == "django-q":
            return self.django_q(kwargs)
        return Schedule("unknown")

    def apscheduler_trigger(self, trigger: Optional[IR], kwargs: dict) -> Schedule:
        if trigger is None:
            return Schedule("once", note="no trigger: APScheduler runs it once, now")
        fields = dict(kwargs)
        alias = self.fold(trigger)
        call = as_call(trigger)
        if call is not None:
            alias = knowledge.APSCHEDULER_TRIGGERS.get(self.index.canonical(call.target) or "", UNKNOWN)
            fields = dict(call.kwargs)
            if alias == "crontab":
                return _cron_string(self.fold(call.first_arg or fields.get("expr")))
        if alias == "interval":
            total = 0.0
            for key, factor in _INTERVAL_KWARGS.items():
                if key in fields:
                    value = as_seconds(self.fold(fields[key]))
                    if value is None:
                        return Schedule("unknown")
                    total += value * factor
            return Schedule("interval", seconds=total or None) if total else Schedule("unknown")
        if alias == "cron":
            cron = self.cron_fields(fields, ("year", "month", "day", "week", "day_of_week", "hour", "minute", "second"))
            return Schedule("cron", cron=cron or "(every minute)")
        if alias == "date":
            return Schedule("once")
        return Schedule("unknown")

    def cron_fields(self, fields: dict, names: tuple) -> str:
        parts = []
        for name in names:
            if name in fields:
                value = self.fold(fields[name])
                parts.append(f"{name}={value if value is not UNKNOWN else '?'}")
        return " ".join(parts)

    def periodiq_schedule(self, value: IR) -> Schedule:
        """periodiq's ``periodic=cron("*/5 * * * *")``: the cron string of a periodiq ``cron()`` call."""
        call = as_call(value)
        if call is None or (self.index.canonical(call.target) or "") not in knowledge.PERIODIQ_CRON:
            return Schedule("unknown")
        return _cron_string(self.fold(call.first_arg))

    def crontab(self, value: Optional[IR], names=("minute", "hour", "day_of_week", "day_of_month", "month_of_year", "day", "month")) -> Schedule:
        """celery/huey ``crontab(...)``: omitted fields are '*'."""
        call = as_call(value)
        if call is None:
            return Schedule("unknown")
        fields = dict(call.kwargs)
        cron = self.cron_fields(fields, names)
        note = ""
        if "minute" not in fields and any(k in fields for k in ("hour", "day_of_week", "day_of_month", "day", "month_of_year", "month")):
            note = "no minute given: fires every minute of the matching hours"
        return Schedule("cron", cron=cron or "(every minute)", note=note)

    def celery_schedule(self, value: Optional[IR]) -> Schedule:
        if value is None:
            return Schedule("unknown")
        call = as_call(value)
        if call is not None and (self.index.canonical(call.target) or "") in knowledge.CRONTAB_EVERY_DEFAULT:
            return self.crontab(value)
        if call is not None and (call.target or "").endswith("solar"):
            return Schedule("cron", cron="solar")
        return _interval(self.fold(value))

    def schedule_chain(self, value: Optional[IR]) -> Schedule:
        """``every(10).minutes`` / ``every().day.at("10:30")`` (the ``schedule`` library)."""
        units: list[str] = []
        count = 1.0
        node = value
        at = None
        while node is not None:
            call = as_call(node)
            if attribute(node) is not None:
                node, unit = attribute(node)
                units.append(unit)
            elif call is not None:
                target = call.target or ""
                if target.endswith("every"):
                    folded = self.fold(call.first_arg) if call.args else 1
                    if as_seconds(folded) is None:
                        return Schedule("unknown")
                    count = float(folded)
                    break
                if target.endswith(".at") and call.args:
                    at = self.fold(call.first_arg)
                node = call.receiver
            else:
                return Schedule("unknown")
        unit = next((u for u in units if u in _UNIT_SECONDS), None)
        if unit is None:
            return Schedule("unknown")
        return Schedule("interval", seconds=count * _UNIT_SECONDS[unit], note=f"at {at}" if isinstance(at, str) else "")

    def django_q(self, kwargs: dict) -> Schedule:
        kind_ir = kwargs.get("schedule_type")
        kind = self.fold(kind_ir) if kind_ir is not None else "O"
        if ref_name(kind_ir) is not None:
            kind = _DJANGO_Q_CONSTANTS.get(ref_name(kind_ir).rsplit(".", 1)[-1], kind)
        if kind == "I":
            minutes = as_seconds(self.fold(kwargs.get("minutes")))
            return Schedule("interval", seconds=minutes * 60) if minutes else Schedule("unknown")
        if kind == "C":
            return _cron_string(self.fold(kwargs.get("cron")))
        if kind == "O":
            return Schedule("once")
        if kind in _DJANGO_Q_TYPES and _DJANGO_Q_TYPES[kind]:
            return Schedule("interval", seconds=_DJANGO_Q_TYPES[kind])
        return Schedule("unknown")

    # --- sources ------------------------------------------------------------
    def from_decorators(self) -> None:
        for qualname, (summary, func) in sorted(self.index.functions.items()):
            for decorator in func.decorators:
                target, args, kwargs = _call_parts(decorator)
                canonical = self.index.canonical(target) or ""
                source = _match(knowledge.JOB_DECORATORS, canonical)
                if source is None and canonical in self.index.classes:
                    # ``job = functools.partial(MyJob, connection=conn)``: a subclass of a known decorator class
                    source = next((s for base in sorted(self.index.class_bases(canonical)) if (s := _match(knowledge.JOB_DECORATORS, base))), None)
                if source is None:
                    continue
                name = next((v for v in (self.fold(kwargs[o]) for o in knowledge.JOB_NAME_OPTIONS if o in kwargs) if isinstance(v, str)), None)
                if source.framework == "Celery" and not isinstance(name, str):
                    name = _celery_default_name(qualname)
                # ``via`` as the project spells the decorator; FRAMEWORK says whose it is
                self.add(source, qualname, qualname, summary.path, args, kwargs, name=name if isinstance(name, str) else None,
                         via=f"decorator {target or canonical}")
                break

    def from_decorated_classes(self) -> None:
        """``@task(queue=...) class RunJob(BaseTask)`` of a decorator whose workers run a method of
        the class (``JobSource.class_runs``): that method, the class's own or inherited, is the job."""
        for qualname, (summary, cls) in sorted(self.index.classes.items()):
            for decorator in cls.decorators:
                target, args, kwargs = _call_parts(decorator)
                source = _match(knowledge.JOB_DECORATORS, self.index.canonical(target) or "")
                if source is None or not source.class_runs:
                    continue
                owner = next((c for c in self.index.mro(qualname) if source.class_runs in self.index.classes[c][1].methods), None)
                function = f"{owner}.{source.class_runs}" if owner else None
                self.add(source, function, qualname, summary.path, args, kwargs, name=qualname,
                         via=f"class decorator {target}: {source.class_runs}()")
                break

    def from_classes(self) -> None:
        for qualname, (summary, cls) in sorted(self.index.classes.items()):
            bases = self.index.class_bases(qualname)
            if "run" in cls.methods and bases & knowledge.CELERY_TASK_BASES:
                options: dict = {}
                for ancestor in reversed(self.index.mro(qualname)):  # the nearest class wins
                    options.update(self.index.classes[ancestor][1].attrs)
                name = self.fold(options.get("name"))
                source = knowledge.CELERY_TASK_SOURCE
                self.add(source, f"{qualname}.run", qualname, summary.path, (), options, name=name if isinstance(name, str) else qualname,
                         via="subclass of celery.Task with run()")
            elif "run" in cls.methods and bases & knowledge.THREAD_BASES:
                source = knowledge.THREAD_SUBCLASS_SOURCE
                self.add(source, f"{qualname}.run", qualname, summary.path, name=qualname, options=dict(cls.attrs),
                         via="subclass of threading.Thread with run()")
            elif "run" in cls.methods and bases & knowledge.PROCESS_BASES:
                self.add(knowledge.PROCESS_SUBCLASS_SOURCE, f"{qualname}.run", qualname, summary.path, name=qualname, options=dict(cls.attrs),
                         via="subclass of multiprocessing.Process with run()")
            elif "execute" in cls.methods and bases & set(knowledge.DJANGO_EXTENSIONS_JOB_BASES):
                self.django_extensions_job(qualname, summary, bases)
            elif bases & set(knowledge.LIBRARY_JOB_CLASSES):
                base = min(bases & set(knowledge.LIBRARY_JOB_CLASSES))
                framework, methods = knowledge.LIBRARY_JOB_CLASSES[base]
                for method in methods:
                    if method in cls.methods:
                        self.add(knowledge.LIBRARY_JOB_SOURCES[framework], f"{qualname}.{method}", qualname, summary.path, name=qualname,
                                 options={}, via=f"subclass of {base} with {method}()")
            self.arq_settings(qualname, summary, cls)

    def from_worker_commands(self) -> None:
        """A Django management command whose ``handle()`` runs an endless loop, its own or one of a
        function it calls (within ``WORKER_COMMAND_DEPTH`` calls): the command is a worker process
        and ``handle()`` its job. A command that does its work and returns is not one."""
        for qualname, (summary, cls) in sorted(self.index.classes.items()):
            handle = f"{qualname}.handle"
            if "handle" not in cls.methods or not self.index.class_bases(qualname) & knowledge.DJANGO_COMMAND_BASES:
                continue
            loop = next((name for name, _parent in breadth_first([handle], self.index.callees, max_depth=knowledge.WORKER_COMMAND_DEPTH)
                         if (func := self.index.function(name)) is not None and func.endless_loop), None)
            if loop is None:
                continue
            through = "" if loop == handle else f" through {loop.rsplit('.', 1)[-1]}()"
            self.add(knowledge.WORKER_COMMAND_SOURCE, handle, qualname, summary.path, name=qualname, options={},
                     via=f"management command whose handle() runs an endless loop{through}")

    def from_registries(self) -> None:
        """Functions decorated with a project decorator that stores them in a container
        (``TASKS[name] = fn``, ``HOOKS.append(fn)``: ``FunctionSummary.param_stores``), when a function
        run by a worker loop calls that container's items (``TASKS[name](*args)``: ``item_calls``). The
        loop is the runner's own or a caller's (within REGISTRY_RUNNER_DEPTH calls), or the runner is a
        job itself. A registry nothing of the project's calls from a loop (a plugin list read once, a
        dispatch table of a request handler) makes no job."""
        callers: dict[str, set[str]] = {}
        for name in self.index.functions:
            for callee in self.index.callees(name):
                callers.setdefault(callee, set()).add(name)
        roots = {job.function for job in self.jobs if job.function}
        runners: dict[str, str] = {}  # container -> the function that calls its items in a loop
        for qualname, (_summary, func) in sorted(self.index.functions.items()):
            for container in func.item_calls:
                if container not in runners and self._runs_in_a_loop(qualname, callers, roots):
                    runners[container] = qualname
        if not runners:
            return
        # ``@hook`` names the decorator itself; ``@task("name")`` calls a factory returning it
        decorators: dict[tuple[str, bool], tuple[str, str]] = {}  # (qualname, called) -> (container, runner)
        for qualname, (_summary, func) in sorted(self.index.functions.items()):
            first = _first_param(func)
            for param, path in func.param_stores:
                container = self.index.canonical(path) or path
                if param != first or container not in runners:
                    continue
                decorators.setdefault((qualname, False), (container, runners[container]))
                factory = qualname.rsplit(".<locals>.", 1)[0] if ".<locals>." in qualname else None
                made = self.index.function(factory) if factory else None
                if made is not None and made.returns == ("ref", qualname):
                    decorators.setdefault((factory, True), (container, runners[container]))
        already = {job.function for job in self.jobs if job.function}
        for qualname, (summary, func) in sorted(self.index.functions.items()):
            if qualname in already:
                continue
            for decorator in func.decorators:
                target = callee_name(decorator)
                used = self.index.resolve_function(target) if target else None
                key = (used, decorator[0] == "call")
                if key not in decorators:
                    continue
                container, runner = decorators[key]
                self.add(knowledge.REGISTRY_SOURCE, qualname, qualname, summary.path, name=qualname, options={},
                         via=f"decorator {used} stores it in {container}, whose items {runner}() calls in a worker loop")
                break

    def _runs_in_a_loop(self, qualname: str, callers: dict, roots: set) -> bool:
        """Does ``qualname`` run in an endless loop: its own, or a caller's within REGISTRY_RUNNER_DEPTH
        calls, or is it (or such a caller) a job's function?"""
        for name, _parent in breadth_first([qualname], lambda n: sorted(callers.get(n, ())), max_depth=knowledge.REGISTRY_RUNNER_DEPTH):
            func = self.index.function(name)
            if name in roots or (func is not None and func.endless_loop):
                return True
        return False

    def django_extensions_job(self, qualname: str, summary, bases: set) -> None:
        """``class Job(HourlyJob): def execute(self)``: a scheduled job; its ``when`` from the base
        class, or from the nearest ``when = "..."`` in its ancestry."""
        when = next((knowledge.DJANGO_EXTENSIONS_JOB_BASES[b] for b in sorted(bases) if knowledge.DJANGO_EXTENSIONS_JOB_BASES.get(b)), None)
        for ancestor in self.index.mro(qualname):  # the nearest class first
            written = self.fold(self.index.classes[ancestor][1].attrs.get("when"))
            if isinstance(written, str):
                when = written
                break
        seconds = knowledge.DJANGO_EXTENSIONS_WHEN_SECONDS.get(when or "")
        schedule = Schedule("interval", seconds) if seconds else Schedule("cron", cron=when) if when else Schedule("unknown")
        self.add(knowledge.DJANGO_EXTENSIONS_JOB_SOURCE, f"{qualname}.execute", qualname, summary.path, name=qualname,
                 schedule=schedule, options={}, via="subclass of django_extensions BaseJob with execute()")

    def arq_settings(self, qualname: str, summary, cls) -> None:
        cron_jobs = cls.attrs.get("cron_jobs")
        functions = cls.attrs.get("functions")
        is_arq = cron_jobs is not None or (functions is not None and "WorkerSettings" in cls.name)
        if not is_arq:
            return
        for entry in _items(functions):
            target, args, kwargs = _call_parts(entry)
            if as_call(entry) is not None and (self.index.canonical(target) or "") in knowledge.ARQ_FUNC:
                function, written = self.function_of(args[0] if args else kwargs.get("coroutine"))
            else:
                function, written = self.function_of(entry)
                kwargs = {}
            self.add(knowledge.ARQ_FUNCTION_SOURCE, function, written, summary.path, (), kwargs, via=f"{qualname}.functions (arq)")
        for entry in _items(cron_jobs):
            target, args, kwargs = _call_parts(entry)
            if as_call(entry) is None or (self.index.canonical(target) or "") not in knowledge.ARQ_CRON:
                continue
            function, written = self.function_of(args[0] if args else kwargs.get("coroutine"))
            fields = self.cron_fields(kwargs, ("month", "day", "weekday", "hour", "minute", "second"))
            note = "" if "minute" in kwargs or not any(k in kwargs for k in ("hour", "day", "weekday", "month")) else "no minute given: fires every minute of the matching hours"
            schedule = Schedule("cron", cron=fields or "(every minute)", note=note)
            self.add(knowledge.ARQ_CRON_SOURCE, function, written, summary.path, (), kwargs, schedule=schedule, via=f"{qualname}.cron_jobs (arq)")

    def from_calls(self) -> None:
        for summary in sorted(self.index.modules.values(), key=lambda s: s.path):
            for call, scope in summary.recorded_calls:
                canonical = self.index.canonical(call_name(call)) or ""
                source = _match(knowledge.JOB_CALLS, canonical)
                if source is None:
                    continue
                target, args, kwargs = _call_parts(call)
                func_arg = _func_arg(source.func, args, kwargs)
                if func_arg is None:
                    continue  # no function given here: ``@aiocron.crontab("...")`` (the decorator), a partial call
                if (self.index.canonical(call_name(func_arg)) or "") in knowledge.CALLABLE_TYPES:
                    func_arg = UNKNOWN_IR  # ``fn: Callable``, a parameter: which function is the caller's to say
                function, written = self.function_of(func_arg)
                if source.awaitable and not self.makes_a_coroutine(func_arg, function):
                    function, written = None, "?"  # ``ensure_future(awaitable)``: an object made elsewhere
                if source.any_receiver and function is None:
                    continue  # ``x.submit(...)`` on an unknown receiver counts only for a project function
                position = source.func[1] if isinstance(source.func, tuple) else 0
                rest = args[position + 1 :] if isinstance(position, int) else args
                name = None
                task = None
                if source.framework == "Celery beat":
                    task = self.celery_task_for(function) or self.celery_task_named(written)
                    name = task.name if task else written  # the task's name; ``name=`` names the beat entry
                schedule = None
                if source.schedule == "schedule-chain":  # every(10).minutes.do(f): the schedule is the receiver
                    schedule = self.schedule_chain(as_call(call).receiver)
                elif source.schedule == "celery-arg":
                    schedule = self.celery_schedule(args[0] if args else kwargs.get("schedule"))
                # A beat entry runs the task, under the task's own limits.
                job = self.add(source, function, written, summary.path, rest, kwargs, name=name, schedule=schedule, call_args=args,
                               via=f"call {_short_call(canonical)}", limits=dict(task.limits) if task is not None else None)
                if function is None and func_arg == UNKNOWN_IR and scope and scope in self.index.functions:
                    self.unnamed_in_scope.setdefault(scope, []).append(job)

    # --- the project's own wrappers ---------------------------------------------
    def find_wrappers(self) -> dict[str, tuple[str, Job]]:
        """Project decorators that make the function they decorate a job: their body, or a function
        they define, registers an unnamed function (their parameter) with a scheduler or queue
        (``schedule.every(n).minutes.do(func)``, ``scheduler.add_job(func)``), calls a known job
        decorator (``app.task(func)``, ``app.task(**opts)(func)``) or decorates its wrapper with one.
        Qualname -> (what it reaches, a template job for framework, kind and schedule)."""
        nested: dict[str, list[str]] = {}
        for qualname in self.index.functions:
            if ".<locals>." in qualname:
                nested.setdefault(qualname.split(".<locals>.", 1)[0], []).append(qualname)
        found: dict[str, tuple[str, Job]] = {}
        for qualname, (summary, func) in sorted(self.index.functions.items()):
            if ".<locals>." in qualname or not func.params:
                continue
            for scope in [qualname, *sorted(nested.get(qualname, ()))]:
                hit = self._wraps_job(scope, summary.path)
                if hit is not None:
                    found[qualname] = hit
                    break
        return found

    def _wraps_job(self, scope: str, path: str) -> Optional[tuple[str, Job]]:
        for job in self.unnamed_in_scope.get(scope, ()):
            return job.via.removeprefix("call "), job
        func = self.index.function(scope)
        if func is None:
            return None
        targets = list(func.calls)
        if ".<locals>." in scope:  # ``@app.task`` on the wrapper it returns
            targets += [callee_name(d) for d in func.decorators if callee_name(d)]
        for target in targets:
            canonical = self.index.canonical(target) or ""
            source = _match(knowledge.JOB_DECORATORS, canonical)
            if source is not None:
                template = Job(None, canonical, canonical, source.kind, source.framework, path, 0, path,
                               Schedule("unknown") if source.schedule else None, per_process=source.per_process)
                return _short_call(canonical), template
        return None

    def configured_decorator(self, target: str) -> Optional[str]:
        """The ``job-decorators`` entry a decorator's target names, directly or through a re-export."""
        if not self.job_decorators:
            return None
        names = {target, self.index.canonical(target) or target, self.index.resolve_function(target) or target}
        for entry in self.job_decorators:
            if entry in names or (self.index.canonical(entry) or entry) in names or self.index.resolve_function(entry) in names - {None}:
                return entry
        return None

    def from_wrappers(self) -> None:
        """Functions decorated with a project wrapper (``find_wrappers``) or with a decorator named in
        the ``job-decorators`` setting. The wrapper's own registration of its parameter gives way to
        the jobs of the functions it decorates."""
        wrappers = self.find_wrappers()
        already = {job.function for job in self.jobs if job.function}
        used: set[str] = set()
        for qualname, (summary, func) in sorted(self.index.functions.items()):
            if qualname in already:
                continue
            for decorator in func.decorators:
                target, args, kwargs = _call_parts(decorator)
                if not target:
                    continue
                entry = self.configured_decorator(target)
                if entry is not None:
                    self.add(knowledge.CONFIGURED_JOB_SOURCE, qualname, qualname, summary.path, args, kwargs,
                             via=f"decorator {entry} (job-decorators)")
                    break
                wrapper = self.index.resolve_function(target)
                made = self.index.canonical(target)
                if made in self.index.classes and as_call(decorator) is not None:
                    # ``@task(queue="q")`` of a project class: its instance's ``__call__`` gets the function
                    wrapper = next((f"{c}.__call__" for c in self.index.mro(made) if f"{c}.__call__" in self.index.functions), None)
                if wrapper in wrappers:
                    what, template = wrappers[wrapper]
                    path, line = self.location(qualname, summary.path)
                    name = _celery_default_name(qualname) if template.framework == "Celery" else qualname
                    self.jobs.append(Job(qualname, qualname, name, template.kind, template.framework, path, line, summary.path,
                                         schedule=template.schedule, per_process=template.per_process,
                                         via=f"wrapper {wrapper} -> {what}"))
                    used.add(wrapper)
                    break
        replaced = {
            id(job)
            for scope, jobs in self.unnamed_in_scope.items()
            if scope.split(".<locals>.", 1)[0] in used
            for job in jobs
        }
        # ``@app.task`` on the wrapper a used wrapper returns: the decorated functions are the jobs
        replaced |= {id(job) for job in self.jobs if job.function and job.function.split(".<locals>.", 1)[0] in used and ".<locals>." in job.function}
        if replaced:
            self.jobs = [job for job in self.jobs if id(job) not in replaced]

    # --- the project's own job-starting functions ----------------------------------
    def find_call_wrappers(self) -> dict[str, tuple[frozenset, knowledge.JobSource, str]]:
        """Plain project functions that hand a parameter on, as it is, as the function of a job
        (``def enqueue(fn, *args): get_queue().enqueue_call(func=fn, args=args)``,
        ``def spawn(coro): return asyncio.create_task(coro)``), also through one another.
        Qualname -> (the argument keys that take the function, the job source, the call it reaches)."""
        wrappers: dict[str, tuple[frozenset, knowledge.JobSource, str]] = {}
        for _round in range(4):  # a wrapper of a wrapper of a wrapper: enough for real projects
            changed = False
            for qualname, (_summary, func) in sorted(self.index.functions.items()):
                if qualname in wrappers:
                    continue
                for param, target, key in func.param_handoffs:
                    hit = self._hands_a_job(target, key, wrappers)
                    if hit is not None:
                        wrappers[qualname] = (frozenset(func.argument_keys(param)), *hit)
                        changed = True
                        break
            if not changed:
                break
        return wrappers

    def _hands_a_job(self, target: str, key: str, wrappers: dict) -> Optional[tuple[knowledge.JobSource, str]]:
        """(job source, call) when the argument ``key`` of a call of ``target`` is a job's function:
        a job start's function argument, or the function argument of a wrapper already found."""
        if target.startswith("?"):
            return None  # a call on a receiver bgcheck could not resolve
        canonical = self.index.canonical(target) or target
        source = _match(knowledge.JOB_CALLS, canonical)
        if source is not None:  # matched by method name alone (``x.submit``): as in from_calls, a job
            spec = source.func  # only when what the callers hand on is a project function
            if isinstance(spec, tuple) and (key == spec[2] or (key == "" and spec[1] == 0)):
                return source, _short_call(canonical)
            return None
        callee = self.index.resolve_function(canonical)
        if callee in wrappers and key in wrappers[callee][0]:
            return wrappers[callee][1], wrappers[callee][2]
        return None

    def from_call_wrappers(self) -> None:
        """Functions handed to a call wrapper (``enqueue(send_receipt, order.id)``, ``spawn(poll())``)
        are jobs of the wrapper's kind; the wrapper's own registration of its parameter gives way to them."""
        wrappers = self.find_call_wrappers()
        if not wrappers:
            return
        seen: set[tuple] = set()
        used: set[str] = set()
        for qualname, (summary, func) in sorted(self.index.functions.items()):
            handed = [(t, k, r, False) for t, k, r in func.ref_handoffs] + [(t, k, c, True) for t, k, c in func.call_handoffs]
            for target, key, value, is_call in handed:
                wrapper = None if target.startswith("?") else self.index.resolve_function(self.index.canonical(target) or target)
                if wrapper not in wrappers or wrapper == qualname:
                    continue
                keys, source, what = wrappers[wrapper]
                if key not in keys or is_call != source.awaitable:
                    continue  # a function where a coroutine is wanted, or the other way round
                function = self.index.resolve_function(value)
                if function is None or (is_call and not self.makes_a_coroutine(("call", value, (), ()), function)):
                    continue  # a library's function, or a plain function's awaitable: nothing known runs
                if (function, wrapper, summary.path) in seen:
                    continue
                seen.add((function, wrapper, summary.path))
                self.add(source, function, function, summary.path, via=f"wrapper {wrapper} -> {what}")
                used.add(wrapper)
        replaced = {id(job) for wrapper in used for job in self.unnamed_in_scope.get(wrapper, ())}
        self.jobs = [job for job in self.jobs if id(job) not in replaced]

    # --- classes whose method a job runs ----------------------------------------
    def from_runner_classes(self) -> None:
        """A job that runs a method of a project class which calls another method of the class on
        ``cls(...)`` or ``self`` (netbox's ``JobRunner.handle``: ``cls(job).run()``) runs that method
        of every subclass that overrides it: each override is a job of the same framework and kind.
        The base's own method is not one (it is what the subclasses replace); a class whose method
        no job reaches this way is not a job, whatever its methods are called."""
        runs: dict[tuple[str, str], Job] = {}  # (base class, method it calls) -> the job that calls it
        for job in self.jobs:
            owner, _, method = (job.function or "").rpartition(".")
            if not owner or owner not in self.index.classes:
                continue
            func = self.index.function(job.function)
            for target in func.calls if func is not None else ():
                holder, _, called = target.rpartition(".")
                if holder != owner + "()" or called == method:
                    continue  # only a method called on an instance: ``cls.enqueue()`` starts another job
                if any(called in self.index.classes[c][1].methods for c in self.index.mro(owner)):
                    runs.setdefault((owner, called), job)
        if not runs:
            return
        bases = {base for base, _ in runs}
        found = {job.function for job in self.jobs}
        for qualname in sorted(self.index.classes):
            ancestors = self.index.mro(qualname)[1:]
            for base in (b for b in ancestors if b in bases):
                for (owner, called), job in runs.items():
                    function = f"{qualname}.{called}"
                    if owner != base or function in found or called not in self.index.classes[qualname][1].methods:
                        continue
                    found.add(function)
                    path, line = self.location(function, job.registered_in)
                    self.jobs.append(replace(job, function=function, target=qualname, name=qualname, path=path, line=line,
                                             schedule=None if job.kind != "scheduled" else job.schedule,
                                             via=f"subclass of {owner}: {called}() run by {job.function}"))

    def celery_task_for(self, function: Optional[str]) -> Optional[Job]:
        if function is None:
            return None
        for job in self.jobs:
            if job.framework == "Celery" and job.function == function:
                return job
        return None

    def celery_task_named(self, name: str) -> Optional[Job]:
        for job in self.jobs:
            if job.framework == "Celery" and job.name == name:
                return job
        return None

    def from_beat_schedule(self) -> None:
        celery = self.index.celery_config
        setting = celery.get("beat_schedule") if celery else None
        if setting is None or dict_entries(setting.ir) is None:
            return
        tasks = {job.name: job for job in self.jobs if job.framework == "Celery"}
        source = knowledge.CELERY_BEAT_SOURCE
        registered_in = setting.where.split(":", 1)[0]
        for key_ir, entry in dict_entries(setting.ir):
            if key_ir is None or dict_entries(entry) is None:
                continue
            entry_fields = {self.fold(k): v for k, v in dict_entries(entry) if k is not None}
            task_name = self.fold(entry_fields.get("task"))
            if not isinstance(task_name, str):
                continue
            task = tasks.get(task_name)
            schedule = self.celery_schedule(entry_fields.get("schedule"))
            entry_name = self.fold(key_ir)
            self.add(source, task.function if task else None, task_name, registered_in, name=task_name, schedule=schedule,
                     options={"beat_entry": ("v", entry_name)},
                     via=f"beat_schedule entry {entry_name!r}" if isinstance(entry_name, str) else "beat_schedule entry",
                     limits=dict(task.limits) if task is not None else None)  # the beat entry runs under the task's own limits

    def add_celery_config_limits(self) -> None:
        celery = self.index.celery_config
        if celery is None:
            return
        for position, job in enumerate(self.jobs):
            if not job.framework.startswith("Celery"):
                continue
            limits = dict(job.limits)
            for limit, (setting_name, kind) in knowledge.CELERY_TASK_OPTIONS.items():
                setting = celery.get(setting_name)
                if limit in limits or setting is None:
                    continue
                if kind is bool:
                    if isinstance(setting.value, bool):
                        limits[limit] = setting.value
                else:
                    seconds = as_seconds(setting.value)
                    if seconds is not None:
                        limits[limit] = seconds
            if limits != job.limits:
                self.jobs[position] = replace(job, limits=limits)


# (sources, target -> the first source that matches it): the same targets come up thousands
# of times in a project, the tables (tuples in knowledge.py) never change.
_MATCHED: dict[int, tuple[tuple, dict]] = {}


def _first_param(func) -> Optional[str]:
    """The first parameter a caller fills (after ``self``/``cls`` of a method)."""
    params = list(func.params)
    if func.class_qualname and params and params[0] in ("self", "cls"):
        params = params[1:]
    return params[0] if params else None


def _match(sources: tuple, canonical: str) -> Optional[knowledge.JobSource]:
    if not canonical:
        return None
    entry = _MATCHED.get(id(sources))
    if entry is None or entry[0] is not sources or len(entry[1]) > 500_000:
        entry = _MATCHED[id(sources)] = (sources, {})
    known = entry[1]
    if canonical not in known:
        known[canonical] = next((source for source in sources if source.regex.fullmatch(canonical)), None)
    return known[canonical]


def _call_parts(value: IR) -> tuple[Optional[str], tuple, dict]:
    """(target, positional args, keyword args) of a call IR, or of a bare reference."""
    if ref_name(value) is not None:
        return ref_name(value), (), {}
    call = as_call(value)
    if call is not None:
        return call.target, tuple(call.args), call.named
    return None, (), {}


def _func_arg(spec, args: tuple, kwargs: dict) -> Optional[IR]:
    if not isinstance(spec, tuple):
        return None
    kind, position, keyword = spec
    if keyword and keyword in kwargs:
        return kwargs[keyword]
    if kind == "arg" and position is not None and position < len(args):
        return args[position]
    return None


def _items(value: Optional[IR]) -> tuple:
    return seq_items(value) or ()


def _interval(value) -> Schedule:
    seconds = as_seconds(value)
    return Schedule("interval", seconds=seconds) if seconds else Schedule("unknown")


def _cron_string(value) -> Schedule:
    return Schedule("cron", cron=value) if isinstance(value, str) else Schedule("unknown")


def _short_call(canonical: str) -> str:
    """``schedule.every().minutes.do`` -> ``schedule.every().do``: the chain's ends, as a reader knows it."""
    parts = canonical.split(".")
    middle = [p for p in parts[1:-1] if p.endswith("()")]
    if len(parts) > 3 and middle and middle[0] != parts[1]:
        return canonical
    return ".".join([parts[0], *middle[:1], parts[-1]]) if len(parts) > 3 and middle else canonical


def _celery_default_name(qualname: str) -> str:
    return qualname  # Celery names a task "<module>.<function>" by default


def find_jobs(index: ProjectIndex, job_decorators: tuple = ()) -> list[Job]:
    finder = _JobFinder(index, job_decorators)
    finder.from_decorators()
    finder.from_decorated_classes()
    finder.from_classes()
    finder.from_worker_commands()
    finder.from_calls()
    finder.from_wrappers()
    finder.from_call_wrappers()
    finder.from_runner_classes()
    finder.from_registries()
    finder.from_beat_schedule()
    finder.add_celery_config_limits()
    return finder.jobs


def frameworks_without_jobs(index: ProjectIndex, jobs: Iterable[Job]) -> tuple[tuple[str, str], ...]:
    """The job frameworks the project's code imports but declares no job of: (the framework's
    name, the module imported), in knowledge.JOB_FRAMEWORK_IMPORTS's order. A framework that is
    the project itself (celery's own source) is not imported from outside, so it is not listed."""
    imported: set[str] = set()
    for summary in index.modules.values():
        for qualified in summary.imports.values():
            imported.add(qualified.partition(".")[0])
    found = {job.framework for job in jobs}
    if knowledge.CONFIGURED_JOB_SOURCE.framework in found:
        return ()  # the project names its own job decorators: it knows where its jobs are
    project_tops = {name.partition(".")[0] for name in index.modules}
    return tuple(
        (label, module)
        for module, (label, frameworks) in knowledge.JOB_FRAMEWORK_IMPORTS.items()
        if module in imported and module not in project_tops and not frameworks & found
    )


def inventory_warning(label: str, module: str) -> str:
    """One line for a framework of ``frameworks_without_jobs``."""
    return (f"{module} is imported but no {label} job was found: the job rules do not look at jobs registered "
            "through the project's own code; name such decorators in `job-decorators`")


def job_roots(jobs) -> dict[str, tuple[Job, ...]]:
    """Job function qualname -> the jobs that run it, in the order they were found."""
    roots: dict[str, list[Job]] = {}
    for job in jobs:
        if job.function:
            roots.setdefault(job.function, []).append(job)
    return {name: tuple(found) for name, found in roots.items()}
