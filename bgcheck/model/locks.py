"""The lock model: every distributed lock the project acquires.

Each acquisition records the API, the key (a folded string, or a pattern
with ``*`` where an f-string has an expression), the TTL in seconds (or
"never expires", or unknown, with the reason), auto-renewal, and the job
that holds it (through the job model, so a lock taken in a helper called by
a job belongs to that job). The API facts (parameter, unit, default) are
data in ``knowledge.LOCK_APIS``.
"""

from __future__ import annotations

import enum
import fnmatch
import weakref
from dataclasses import dataclass, field
from typing import Optional, Union

from bgcheck import knowledge
from bgcheck.syntax.ir import IR, UNKNOWN, TimeDelta, as_call, as_seconds, call_name, callee_name, fstr_parts, ref_name
from bgcheck.model.project import ProjectIndex, breadth_first, reads_facts

class Expiry(enum.Enum):
    """A lock TTL that is not a number of seconds."""

    NEVER = "never"  # the lock never expires (no TTL, or a TTL the API reads as forever)


NEVER = Expiry.NEVER
# A lock's TTL: seconds, NEVER, or None when it cannot be folded.
Ttl = Union[float, Expiry, None]


@dataclass(frozen=True)
class LockSite:
    api: str  # "redis-py lock()"
    key: Optional[str]  # "reports:nightly", "lock:user:*" (pattern), or None when unknown
    ttl: Ttl
    ttl_note: str  # why the TTL is unknown, or how it was read ("default 10 s")
    auto_renewal: bool
    function: str  # the function (or module) that acquires it
    path: str
    line: int  # of the enclosing def
    jobs: list = field(default_factory=list)  # the jobs (bgcheck.model.jobs.Job) whose code takes it
    lock_api: Optional[knowledge.LockApi] = None  # None for celery_once

    @property
    def keys(self) -> tuple:
        """The key as stored (``lock:<name>`` for python-redis-lock)."""
        return stored_keys(self.lock_api, self.key)

    def to_dict(self) -> dict:
        return {
            "api": self.api,
            "key": self.key,
            "ttl_seconds": self.ttl if isinstance(self.ttl, float) else None,
            "never_expires": self.ttl == NEVER,
            "ttl_note": self.ttl_note,
            "auto_renewal": self.auto_renewal,
            "function": self.function,
            "path": self.path,
            "line": self.line,
        }


def lock_api(canonical: Optional[str]) -> Optional[knowledge.LockApi]:
    """The lock API a call (or decorator) of this canonical name is, if it takes a distributed lock."""
    if not canonical:
        return None
    for api in knowledge.LOCK_APIS:
        if api.regex.fullmatch(canonical):
            return api
    return None


def match_api(canonical: Optional[str]) -> Optional[knowledge.LockApi]:
    """The lock API of a call whose key and TTL the model reads, or None."""
    api = lock_api(canonical)
    return api if api is not None and api.ttl is not None else None


def key_text(value, ir: Optional[IR]) -> Optional[str]:
    """A lock key as text: the folded string, or an f-string's pattern (``lock:{uid}`` -> ``lock:*``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    parts = fstr_parts(ir)
    if parts is not None:
        pattern = "".join(part if isinstance(part, str) else "*" for part in parts)
        # f"{key}" says nothing about the key: as a pattern it would match every key.
        return pattern if pattern.strip("*") else None
    return None


def stored_keys(api: Optional[knowledge.LockApi], key: Optional[str]) -> tuple:
    """The key as stored in Redis: as written, or prefixed by the API (python-redis-lock
    ``lock:<name>``, pottery ``redlock:<key>``), which is the key a direct delete must name."""
    if key is None:
        return ()
    if api is not None and api.key_prefix:
        return (api.key_prefix + key,)
    return (key,)


def keys_match(a: Optional[str], b: Optional[str]) -> bool:
    if a is None or b is None:
        return False
    if a == b:
        return True
    return fnmatch.fnmatchcase(a, b) or fnmatch.fnmatchcase(b, a)


@dataclass
class LockArgs:
    """The parts of a lock call that matter, from either a call IR or a CST call (via the checker)."""

    args: tuple
    kwargs: dict

    def get(self, keyword: Optional[str], position: Optional[int]) -> Optional[IR]:
        if keyword and keyword in self.kwargs:
            return self.kwargs[keyword]
        if position is not None and position < len(self.args):
            return self.args[position]
        return None


def read_lock(api: knowledge.LockApi, call: LockArgs, fold, configured: Optional[dict] = None) -> Optional[tuple]:
    """(key, ttl, note, auto_renewal) for a call of a lock API; None if the call is not a lock acquisition
    (``set()`` without ``nx=True``). ``configured`` (from ``configured_defaults``) holds the defaults
    the project changed: api label -> (ttl, note)."""
    if api.requires_kw is not None:
        keyword, wanted = api.requires_kw
        if keyword not in call.kwargs or fold(call.kwargs[keyword]) != wanted:
            return None
    key_ir = call.get(*api.key)
    key = key_text(fold(key_ir) if key_ir is not None else UNKNOWN, key_ir)
    keyword, position, factor, default = api.ttl
    ttl_ir = call.get(keyword, position)
    used = keyword
    if ttl_ir is None:
        for other, other_factor in api.other_ttl:
            if other in call.kwargs:
                ttl_ir, factor, used = call.kwargs[other], other_factor, other
                break
    auto_renewal = bool(api.renewal_kw and api.renewal_kw in call.kwargs and fold(call.kwargs[api.renewal_kw]) is True)
    if ttl_ir is None:
        if any(k in call.kwargs for k in api.absolute_ttl):
            return key, None, "an absolute expiry (exat/pxat/keepttl) is not folded", auto_renewal
        if configured and api.label in configured:
            ttl, note = configured[api.label]
            return key, ttl, note, auto_renewal
        if default is None:
            return key, NEVER, "no " + "/".join([keyword, *(other for other, _ in api.other_ttl)]), auto_renewal
        return key, float(default), f"default {default:g} s", auto_renewal
    value = fold(ttl_ir)
    if value is None and not api.none_means_forever:
        return key, None, f"{used}=None is not a TTL this API accepts", auto_renewal
    if value is None or (value == 0 and not isinstance(value, bool) and api.zero_means_forever):
        return key, NEVER, f"{used}={value}", auto_renewal
    seconds = value.seconds if isinstance(value, TimeDelta) else as_seconds(value)
    if seconds is None:
        return key, None, f"{used}= does not fold to a number", auto_renewal
    if isinstance(value, TimeDelta):
        return key, float(seconds), f"{used}=timedelta of {seconds:g} s", auto_renewal
    seconds *= factor
    return key, float(seconds), f"{used}={value:g}", auto_renewal


_DEFAULTS: "weakref.WeakKeyDictionary[ProjectIndex, dict]" = weakref.WeakKeyDictionary()


@reads_facts("lock_defaults")
def configured_defaults(index: ProjectIndex) -> dict:
    """Default TTLs the project itself changes, so the library default would be a guess:
    api label -> (seconds, NEVER or None when unknown; note). Django's ``CACHES['default']['TIMEOUT']``,
    celery_once's ``ONCE['settings']['default_timeout']``, and ``sherlock.configure()``."""
    cached = _DEFAULTS.get(index)
    if cached is not None:
        return cached
    found: dict = {}
    for summary in sorted(index.modules.values(), key=lambda s: s.path):
        caches = summary.constants.get("CACHES")
        if caches is not None and "Django cache.add()" not in found:
            found["Django cache.add()"] = _django_timeout(index.fold(caches), summary.path)
        for name in ("ONCE", "CELERY_ONCE"):
            if summary.constants.get(name) is not None and "celery_once QueueOnce" not in found:
                once = _once_default(index.fold(summary.constants[name]), f"{name} in {summary.path}")
                if once is not None:
                    found["celery_once QueueOnce"] = once
        for path, value, _scope, _calls_before in summary.attr_assignments:
            if "celery_once QueueOnce" not in found and (index.canonical(path) or "").endswith("conf.ONCE"):
                once = _once_default(index.fold(value), f"app.conf.ONCE in {summary.path}")
                if once is not None:
                    found["celery_once QueueOnce"] = once
        for call, _scope in summary.recorded_calls:
            if "celery_once QueueOnce" in found or not (index.canonical(call_name(call)) or "").endswith("conf.update"):
                continue
            for key, value in as_call(call).kwargs:
                if key == "ONCE":
                    once = _once_default(index.fold(value), f"app.conf.update(ONCE=...) in {summary.path}")
                    if once is not None:
                        found["celery_once QueueOnce"] = once
    if any(index.canonical(target) == "sherlock.configure" for target in index.all_call_targets()):
        found["sherlock Lock"] = (None, "sherlock.configure() in the project may change the default expire")
    _DEFAULTS[index] = found
    return found


def _django_timeout(caches, where: str) -> tuple:
    if not isinstance(caches, dict):
        return None, f"CACHES in {where} does not fold, so the default timeout is unknown"
    default = caches.get("default")
    if not isinstance(default, dict):
        return None, f"CACHES['default'] in {where} does not fold, so the default timeout is unknown"
    if "TIMEOUT" not in default:
        return 300.0, "default 300 s"
    value = default["TIMEOUT"]
    if value is None:
        return NEVER, f"CACHES['default']['TIMEOUT']=None in {where}"
    seconds = as_seconds(value)
    if seconds is None:
        return None, f"CACHES['default']['TIMEOUT'] in {where} does not fold to a number"
    return seconds, f"CACHES['default']['TIMEOUT']={seconds:g} in {where}"


def _once_default(once, where: str) -> Optional[tuple]:
    """celery_once's default timeout from an ONCE setting; None when the setting leaves it alone."""
    if not isinstance(once, dict):
        return None, f"{where} does not fold, so the default timeout is unknown"
    settings = once.get("settings", {})
    if not isinstance(settings, dict):
        return None, f"{where} does not fold, so the default timeout is unknown"
    if "default_timeout" not in settings:
        return None
    seconds = as_seconds(settings["default_timeout"])
    if seconds is None:
        return None, f"default_timeout in {where} does not fold to a number"
    return seconds, f"default_timeout={seconds:g} in {where}"


def find_locks(index: ProjectIndex) -> list[LockSite]:
    sites: list[LockSite] = []
    configured = configured_defaults(index)
    for summary in sorted(index.modules.values(), key=lambda s: s.path):
        recorded = set()
        for ir, scope in summary.recorded_calls:
            call = as_call(ir)
            api = match_api(index.canonical(call.target))
            if api is None:
                continue
            args = LockArgs(tuple(call.args), call.named)
            read = read_lock(api, args, index.fold, configured)
            if read is None:
                continue
            if read[1] is None:
                read = _ttl_through_arguments(index, api, call, scope, read) or read
            recorded.add((scope, api.label, read))
            sites.append(_site(index, api, read, scope, summary))
        for qualname, func in summary.functions.items():
            for decorator in func.decorators:
                api = match_api(index.canonical(callee_name(decorator)))
                call = as_call(decorator)
                if api is None or call is None:
                    continue
                args = LockArgs(tuple(call.args), call.named)
                read = read_lock(api, args, index.fold, configured)
                # A decorator call is usually recorded as a call as well: one lock, listed once.
                if read is not None and (qualname, api.label, read) not in recorded:
                    sites.append(_site(index, api, read, qualname, summary))
    sites.extend(_celery_once(index, configured))
    return sites


def _ttl_through_arguments(index: ProjectIndex, api, call, scope: str, read: tuple) -> Optional[tuple]:
    """``read_lock``'s ``read`` of a lock whose TTL is a parameter of the function taking it (``def acquire(name,
    ttl=None): client.lock(name, timeout=ttl)``): no expiry when the parameter's default is None and
    every call of the function in the project leaves it out or passes None. None when that is not
    known: a caller passes anything else, hands on ``*args``/``**kwargs``, or the function may be
    called from where bgcheck cannot see (it is passed on as a value, or no project code calls it)."""
    func = index.function(scope)
    if func is None or scope in index.passed_refs():
        return None
    keyword, _position, _factor, _default = api.ttl
    for used in (keyword, *(other for other, _ in api.other_ttl)):
        param = next((p for p, target, key in func.param_handoffs if target == call.target and key == used), None)
        if param is not None:
            break
    else:
        return None
    if (param, False, True) not in func.param_defaults or not _always_none(index, func, param):
        return None
    key, _ttl, _note, auto_renewal = read
    return key, NEVER, through_arguments_note(used, param) + f"{func.name}() passes {param} (its default is None)", auto_renewal


def through_arguments_note(keyword: str, param: str) -> str:
    """How a lock site's note starts when its TTL is a parameter no caller passes (the rule finds
    the site of a call by it: ``timeout=ttl``)."""
    return f"{keyword}={param}, and no call of "


def _always_none(index: ProjectIndex, func, param: str) -> bool:
    """Does every call of ``func`` in the project (at least one) leave ``param`` out or pass None?"""
    calls = 0
    for _qualname, (_summary, caller) in index.functions.items():
        given_at = dict(caller.call_arguments)
        for at, target in enumerate(caller.calls):
            if index.resolve_function(target) != func.qualname:
                continue
            given = given_at.get(at)
            if given is None:
                return False  # ``*args``/``**kwargs``: anything may come
            value = func.passed_to(dict(given), param)
            if value is not None and not (value[0] == "c" and value[2]):
                return False
            calls += 1
    return calls > 0


_HOLDERS: "weakref.WeakKeyDictionary[ProjectIndex, tuple]" = weakref.WeakKeyDictionary()


def holding_jobs(index: ProjectIndex, qualname: Optional[str]) -> list:
    """Every job whose code runs ``qualname`` (itself, or a helper it calls, at any depth):
    a helper called by two jobs is held by both."""
    if not qualname:
        return []
    cached = _HOLDERS.get(index)
    if cached is None or cached[0] is not index.job_roots or cached[1] != len(index.job_roots):
        callees: dict[str, list] = {}  # resolved once, walked once per job root
        by_function: dict[str, list] = {}

        def step(name: str) -> list:
            if name not in callees:
                callees[name] = index.callees(name)
            return callees[name]

        for root in sorted(index.job_roots):
            if root not in index.functions:
                continue
            for name, _parent in breadth_first([root], step):
                holders = by_function.setdefault(name, [])
                holders.extend(job for job in index.job_roots[root] if not any(job is held for held in holders))
        cached = (index.job_roots, len(index.job_roots), by_function)
        _HOLDERS[index] = cached
    return list(cached[2].get(qualname, ()))


def _site(index: ProjectIndex, api, read, scope: str, summary) -> LockSite:
    key, ttl, note, renewal = read
    func = index.function(scope)
    return LockSite(api.label, key, ttl, note, renewal, scope, summary.path, func.line if func else 0, holding_jobs(index, scope), api)


def _celery_once(index: ProjectIndex, configured: dict) -> list[LockSite]:
    """``@app.task(base=QueueOnce, once={"timeout": 60})``: the lock is the task's own."""
    sites = []
    for job in index.jobs:
        if job.framework != "Celery":
            continue
        base = job.options.get("base")
        if ref_name(base) is None or index.canonical(ref_name(base)) not in knowledge.CELERY_ONCE_BASES:
            continue
        once = index.fold(job.options.get("once")) if job.options.get("once") is not None else {}
        if not isinstance(once, dict):
            ttl, note = None, "once= does not fold"
        elif "timeout" in once:
            ttl = as_seconds(once["timeout"])
            note = f"once timeout={ttl:g}" if ttl is not None else "once timeout does not fold to a number"
        elif "celery_once QueueOnce" in configured:
            ttl, note = configured["celery_once QueueOnce"]
        else:
            ttl, note = knowledge.CELERY_ONCE_DEFAULT_TTL, f"celery_once default {knowledge.CELERY_ONCE_DEFAULT_TTL:g} s"
        function = job.function or job.name
        # The task's workers hold it; so does every job whose code runs the task function directly.
        holders = [job] + [other for other in holding_jobs(index, job.function) if other is not job]
        func = index.function(job.function or "")
        sites.append(LockSite("celery_once QueueOnce", job.name, ttl, note, False, function, job.path, func.line if func else 0, holders))
    return sites


def runtime_for(runtimes: dict, jobs: list, lock_key: Optional[str] = None):
    """The longest measured runtime that applies: keyed by a job's qualified function name,
    its task name, how it is registered, or the lock's own key. Returns (Runtime, key) or (None, None)."""
    best = (None, None)
    candidates: list[str] = []
    for job in jobs:
        candidates.extend(k for k in (job.function, job.name, job.target) if k)
    if lock_key:
        candidates.append(lock_key)
    for key in dict.fromkeys(candidates):
        runtime = runtimes.get(key)
        if runtime is not None and (best[0] is None or runtime.seconds > best[0].seconds):
            best = (runtime, key)
    if lock_key and "*" in lock_key:
        # f"report:{day}" is held for as long as the slowest measured "report:2024-01-01" runs.
        for key, runtime in runtimes.items():
            if keys_match(key, lock_key) and (best[0] is None or runtime.seconds > best[0].seconds):
                best = (runtime, key)
    return best


_HARD_LIMITS = ("time_limit", "soft_time_limit", "timeout", "job_timeout")


def declared_limit(jobs: list) -> tuple[Optional[float], str]:
    """The longest declared run limit of the jobs: (seconds, "time_limit=90") or (None, "")."""
    best: tuple[Optional[float], str] = (None, "")
    for job in jobs:
        for name in _HARD_LIMITS:
            value = job.limits.get(name)
            if isinstance(value, float) and (best[0] is None or value > best[0]):
                best = (value, f"{name}={value:g}")
    return best


def unmatched_runtime_keys(runtimes: dict, jobs: list, locks: list) -> list[str]:
    known: set[str] = set()
    for job in jobs:
        known.update(k for k in (job.function, job.name, job.target) if k)
    known.update(site.key for site in locks if site.key)
    return sorted(key for key in runtimes if key not in known and not any(keys_match(key, site.key) for site in locks))
