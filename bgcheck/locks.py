"""The lock model: every distributed lock the project acquires.

Each acquisition records the API, the key (a folded string, or a pattern
with ``*`` where an f-string has an expression), the TTL in seconds (or
"never expires", or unknown, with the reason), auto-renewal, and the job
that holds it (through the job model, so a lock taken in a helper called by
a job belongs to that job). The API facts (parameter, unit, default) are
data in ``knowledge.LOCK_APIS``.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from typing import Optional

from bgcheck import knowledge
from bgcheck.ir import IR, UNKNOWN, TimeDelta, as_seconds
from bgcheck.project import ProjectIndex

NEVER = "never"  # a TTL that never expires


@dataclass
class LockSite:
    api: str  # "redis-py lock()"
    key: Optional[str]  # "reports:nightly", "lock:user:*" (pattern), or None when unknown
    ttl: object  # seconds (float), NEVER, or None when it cannot be folded
    ttl_note: str  # why the TTL is unknown, or how it was read ("default 10 s")
    auto_renewal: bool
    function: str  # the function (or module) that acquires it
    path: str
    line: int  # of the enclosing def
    jobs: list = field(default_factory=list)  # the jobs (bgcheck.jobs.Job) whose code takes it

    def ttl_text(self) -> str:
        if self.ttl == NEVER:
            return "never expires"
        if self.ttl is None:
            return "unknown"
        return f"{self.ttl:g} s"

    def to_dict(self) -> dict:
        return {
            "api": self.api,
            "key": self.key,
            "ttl_seconds": self.ttl if isinstance(self.ttl, float) else None,
            "never_expires": self.ttl == NEVER,
            "auto_renewal": self.auto_renewal,
            "function": self.function,
            "path": self.path,
            "line": self.line,
        }


def match_api(canonical: Optional[str]) -> Optional[knowledge.LockApi]:
    if not canonical:
        return None
    for api in knowledge.LOCK_APIS:
        if api.regex.fullmatch(canonical):
            return api
    return None


def key_text(value, ir: Optional[IR]) -> Optional[str]:
    """A lock key as text: the folded string, or an f-string's pattern (``lock:{uid}`` -> ``lock:*``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if ir is not None and ir[0] == "fstr":
        return "".join(part if isinstance(part, str) else "*" for part in ir[1])
    return None


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


def read_lock(api: knowledge.LockApi, call: LockArgs, fold) -> Optional[tuple]:
    """(key, ttl, note, auto_renewal) for a call of a lock API; None if the call is not a lock acquisition
    (``set()`` without ``nx=True``)."""
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
        if default is None:
            return key, NEVER, f"no {keyword}", auto_renewal
        return key, float(default), f"default {default:g} s", auto_renewal
    value = fold(ttl_ir)
    if value is None or (value == 0 and not isinstance(value, bool) and api.zero_means_forever):
        return key, NEVER, f"{used}={value}", auto_renewal
    seconds = value.seconds if isinstance(value, TimeDelta) else as_seconds(value)
    if seconds is None:
        return key, None, f"{used}= does not fold to a number", auto_renewal
    if not isinstance(value, TimeDelta):
        seconds *= factor
    return key, float(seconds), f"{used}={value:g}" if isinstance(value, (int, float)) else f"{used}", auto_renewal


def find_locks(index: ProjectIndex) -> list[LockSite]:
    sites: list[LockSite] = []
    job_code = index.job_code
    for summary in sorted(index.modules.values(), key=lambda s: s.path):
        for call, scope in summary.recorded_calls:
            api = match_api(index.canonical(call[1]))
            if api is None:
                continue
            args = LockArgs(tuple(call[2]), {k: v for k, v in call[3] if k not in ("*", "**")})
            read = read_lock(api, args, index.fold)
            if read is None:
                continue
            sites.append(_site(index, api, read, scope, summary, job_code))
        for qualname, func in summary.functions.items():
            for decorator in func.decorators:
                api = match_api(index.canonical(decorator[1]) if decorator[0] in ("ref", "call") else None)
                if api is None or decorator[0] != "call":
                    continue
                args = LockArgs(tuple(decorator[2]), {k: v for k, v in decorator[3] if k not in ("*", "**")})
                read = read_lock(api, args, index.fold)
                if read is not None:
                    site = _site(index, api, read, qualname, summary, job_code)
                    sites.append(site)
    sites.extend(_celery_once(index))
    return sites


def _site(index: ProjectIndex, api, read, scope: str, summary, job_code) -> LockSite:
    key, ttl, note, renewal = read
    func = index.function(scope)
    root = job_code.get(scope)
    jobs = list(index.job_roots.get(root, ())) if root else []
    return LockSite(api.label, key, ttl, note, renewal, scope, summary.path, func.line if func else 0, jobs)


def _celery_once(index: ProjectIndex) -> list[LockSite]:
    """``@app.task(base=QueueOnce, once={"timeout": 60})``: the lock is the task's own."""
    sites = []
    for job in index.jobs:
        if job.framework != "Celery":
            continue
        base = job.options.get("base")
        if base is None or base[0] != "ref" or index.canonical(base[1]) not in knowledge.CELERY_ONCE_BASES:
            continue
        once = index.fold(job.options.get("once")) if job.options.get("once") is not None else {}
        timeout = once.get("timeout") if isinstance(once, dict) else None
        ttl = as_seconds(timeout) if timeout is not None else knowledge.CELERY_ONCE_DEFAULT_TTL
        note = "once timeout" if timeout is not None else f"celery_once default {knowledge.CELERY_ONCE_DEFAULT_TTL:g} s"
        func = index.function(job.function or "")
        sites.append(LockSite("celery_once QueueOnce", job.name, ttl, note, False, job.function or job.name, job.path, func.line if func else 0, [job]))
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
