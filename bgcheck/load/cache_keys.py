"""Cache keys: what each cached entry depends on, as digests (see cache.py for the store).

* a file's content key: its bytes, how it is shown and the module it is (summaries, digests);
* the static key: the configuration, runtimes, enabled rules and entry points;
* a file's result key: its content key, the static key, the project-wide facts digest
  (model/facts.py) and the interfaces of the project modules it imports, transitively;
* the project key: the static key and every file's content (the bundle of every result).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from bgcheck.diagnostics import Diagnostic
from bgcheck.load import serial
from bgcheck.load.cache import digest
from bgcheck.load.source import module_name

if TYPE_CHECKING:
    from bgcheck.load.summary import ModuleSummary


def content_key(path: Path, display: str, data: bytes) -> str:
    """A file's cache key: its bytes, how it is shown, and the module it is (from the package layout)."""
    name, is_package = module_name(path)
    return digest(data, display, name, is_package)


def valid_results_entry(value) -> bool:
    return isinstance(value, list) and all(isinstance(d, Diagnostic) for d in value)


def valid_result_entry(value) -> bool:
    """A stored result: (diagnostics, foreign), ``foreign`` as ``foreign_files`` gives it."""
    return isinstance(value, tuple) and len(value) == 2 and valid_results_entry(value[0]) and isinstance(value[1], tuple)


def foreign_files(display: str, diagnostics, digests: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """(display path, summary digest) of every other file the diagnostics point into (their
    notes: a job's ``def``, the calls on the way to it), with each file's digest now
    (``digests``: display path -> summary digest). Positions in other files are no part of the
    result key (model/facts.py digests them as their order within their file): a line added
    above a job's function moves its notes, so the results pointing into that file, and only
    those, are checked again."""
    paths = {location.path for d in diagnostics for location in (d.location, *d.related)} - {display}
    return tuple(sorted((path, digests.get(path, "")) for path in paths))


def foreign_unchanged(foreign, digests: dict[str, str]) -> bool:
    """The files a stored result points into still have the summaries it saw."""
    return all(digest and digests.get(path) == digest for path, digest in foreign)


def static_key(config, runtimes: dict, rule_codes, scripts: dict) -> str:
    """What every file's result depends on besides the project's code."""
    return digest(
        config,
        sorted((k, v.seconds, v.source) for k, v in runtimes.items()),
        list(rule_codes),
        sorted(scripts.items()),  # entry points (BG404) come from pyproject.toml
    )


def project_key(static: str, units) -> str:
    """The key of the bundle of every file's results: any byte of any file, or any setting, changes it."""
    return digest(static, sorted((u.display, u.content_key, u.summary_digest) for u in units))


def file_keys(units, facts: str, static: str, cache=None, closures: Optional[dict] = None) -> dict[str, str]:
    """Each file's result key: its own bytes, the interfaces of the project modules it imports
    (transitively: names resolve through them), and the project-wide facts every rule consults
    (jobs, job code, shutdown paths, locks, money chains, Celery settings, ...). An edit that
    changes none of these for a file leaves its cached result valid. ``facts``: model/facts.py's digest.
    ``cache``: where the interface hashes of the last run's summaries are kept (``interface_hashes``).
    ``closures``: ``closure_hashes`` of these units, when known (kept with the project models)."""
    if closures is None:
        closures = closure_hashes(units, cache)
    keys = {}
    for unit in units:
        if unit.error is None and unit.content_key and unit.display in closures:
            keys[unit.display] = digest(unit.content_key, static, facts, closures[unit.display])
    return keys


def closure_hashes(units, cache=None) -> dict[str, int]:
    """display path -> the hash of the interfaces its module imports (``import_closure_hashes``),
    for every unit with a summary and a content key."""
    closures = import_closure_hashes(units, interface_hashes(units, cache))
    return {unit.display: closures[unit.summary.module] for unit in units if unit.summary is not None and unit.content_key}


def interface(summary: ModuleSummary) -> bytes:
    """What another module can learn from this one when it resolves names through it: imports
    (re-exports), module-level bindings (and the alternatives of a name bound several times), classes, and each function's kind and flags. Not the
    calls a function makes: those reach other files only through the project-wide facts (job
    code, money chains, shutdown paths), which have their own digest. Encoded canonically (see
    serial.py): the same bytes for a summary built here and one read back from the cache."""
    table = serial.IRTable()
    add = table.add
    try:
        classes = [
            (c.qualname, c.bases, [add(d) for d in c.decorators], c.methods,
             [(k, add(v)) for k, v in sorted(c.attrs.items())], [(k, add(v)) for k, v in sorted(c.self_attrs.items())])
            for c in summary.classes.values()
        ]
        functions = [
            (f.qualname, f.is_async, f.is_generator, f.endless_loop, f.keeps_its_errors, f.tests_own_cancelling, f.awaits_a_handed_task, f.keeps_its_cancellation, f.handed_tasks, f.abstract, f.suspends_only_at, f.awaited_io, f.calls_beside_kept_try, f.awaits_through, f.param_stores, f.item_calls, f.params, [add(d) for d in f.decorators],
             f.class_qualname, add(f.returns))  # returns: what a caller's receiver turns out to be (``make_pool().submit``)
            for f in summary.functions.values()
        ]
        constants = [(k, add(v)) for k, v in sorted(summary.constants.items())]
        alternatives = [(k, [add(v) for v in irs]) for k, irs in sorted(summary.alternatives.items())]
        return serial.dumps((summary.module, sorted(summary.imports.items()), constants, alternatives, classes, functions, table.rows))
    except (TypeError, ValueError):  # cannot be encoded: an interface no later run will match
        return os.urandom(16)


# The one entry of kind "interfaces": summary digest -> its interface's hash, for the summaries of the last run.
INTERFACES_KEY = digest("interface hashes")


def interface_hashes(units, cache=None) -> dict[str, str]:
    """summary digest -> the hash (32 hex digits) of that summary's module name and interface,
    for every unit with a summary. An interface is a function of the summary, so the hashes of
    the summaries the last run saw are read back from the cache (one entry) instead of being
    encoded again; the entry is rewritten when the set of summaries changed."""
    known = (cache.get("interfaces", INTERFACES_KEY, counted=False) or {}) if cache is not None else {}
    hashes: dict[str, str] = {}
    for unit in units:
        summary = unit.summary
        if summary is None:
            continue
        key = unit.summary_digest
        found = known.get(key) if key else None
        if found is None:
            found = digest(summary.module, interface(summary))[:32]
        if key:
            hashes[key] = found
    if cache is not None and hashes != known:
        cache.put("interfaces", INTERFACES_KEY, hashes)
    return hashes


def import_closure_hashes(units, hashes: Optional[dict] = None) -> dict[str, int]:
    """module -> a hash of the interfaces of every project module it imports, directly or not.
    ``hashes``: summary digest -> interface hash (``interface_hashes``), when known.

    Sets of modules are bitsets (one bit per module), grown to a fixpoint (import
    cycles are common); a closure's hash is the XOR of its members' hashes."""
    by_module = {u.summary.module: u for u in units if u.summary is not None}
    names = sorted(by_module)
    position = {name: i for i, name in enumerate(names)}
    hashes = hashes or {}
    member_hash = [
        int(hashes.get(by_module[name].summary_digest) or digest(name, interface(by_module[name].summary))[:32], 16) for name in names
    ]
    direct: list[int] = []
    for name in names:
        bits = 1 << position[name]
        for target in by_module[name].summary.imports.values():
            parts = target.split(".")
            for cut in range(len(parts), 0, -1):
                found = position.get(".".join(parts[:cut]))
                if found is not None:
                    bits |= 1 << found
                    break
        direct.append(bits)
    closure = list(direct)
    changed = True
    while changed:  # a few passes: each one follows every import one step further
        changed = False
        for i, bits in enumerate(closure):
            grown = bits
            rest = bits & ~(1 << i)
            while rest:
                low = rest & -rest
                grown |= closure[low.bit_length() - 1]
                rest ^= low
            if grown != bits:
                closure[i] = grown
                changed = True
    hashes: dict[str, int] = {}
    for i, name in enumerate(names):
        value, bits = 0, closure[i]
        while bits:
            low = bits & -bits
            value ^= member_hash[low.bit_length() - 1]
            bits ^= low
        hashes[name] = value
    return hashes


def store_bundle(cache, project_key: str, units, file_keys: dict, raw_results: dict) -> None:
    """Every file's diagnostics (before per-file ignores) under the project digest. ``raw_results``:
    display path -> (diagnostics, foreign), as stored under ``results``."""
    results: dict[str, tuple] = {}
    for unit in units:
        if unit.error is not None:
            continue
        result = raw_results.get(unit.display)
        if result is None:
            result = cache.get("results", file_keys[unit.display]) if unit.display in file_keys else None
        if result is None or not valid_result_entry(result):
            return  # incomplete: no bundle this time
        results[unit.display] = result
    cache.put("bundles", project_key, {display: result[0] for display, result in results.items()})
    cache.put("recent", RECENT_KEY, {display: (file_keys[display], results[display]) for display in results if display in file_keys})


# The one entry of kind "recent": the last bundle's results, each with its result key. A run
# that misses the bundle (a file changed) takes every result whose key is unchanged from it, in
# one read, rather than one entry per file.
RECENT_KEY = digest("recent results")


def recent_results(cache) -> dict:
    """display path -> (result key, (diagnostics, foreign)) from the last stored bundle (``store_bundle``)."""
    return cache.get("recent", RECENT_KEY, counted=False) or {}
