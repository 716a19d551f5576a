"""A run: files -> summaries -> project index -> rules -> diagnostics (the orchestration).

Phase 1 (load/unit.py) reads every file once and keeps its summary (plain data).
The project index and the project-wide models are built once (model/build.py).
Phase 2 (run/check.py) walks, once, each file that an enabled rule can find
something in, with every enabled rule at once. The cache (load/cache.py, keys in
load/cache_keys.py) skips whatever an earlier run already did for the same inputs.

Nothing here imports or runs the code under analysis.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Collection, Mapping, Optional, Sequence

from bgcheck.diagnostics import BG000_CODE, EXPLICIT_ONLY_CODES, Diagnostic
from bgcheck.load import cache_keys
from bgcheck.load.cache_keys import content_key, foreign_files, foreign_unchanged, valid_result_entry, valid_results_entry
from bgcheck.load.config import Config, console_scripts
from bgcheck.load.file_states import FileStates, FolderStates
from bgcheck.load.source import read_source
from bgcheck.load.unit import FileChanged, FileUnit, cached_summary, ensure_summary, ensure_text, load_unit
from bgcheck.model.runtimes import load_runtimes
from bgcheck.rules import catalog
from bgcheck.run import parallel
from bgcheck.run.items import file_items, project_items, stdin_items
from bgcheck.run.noqa import ignored_by, ignored_codes, is_suppressed, parse_noqa, per_file_ignores

# A warm run whose results all come from the cache parses nothing: libcst, the project models
# and the rules (run/check.py, model/build.py, bgcheck.rules) are imported where they are used.
if TYPE_CHECKING:
    from bgcheck.model.project import ProjectIndex
    from bgcheck.rules.base import Rule


@dataclass
class RunResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files_checked: int = 0
    index: Optional[ProjectIndex] = None
    sources: dict = field(default_factory=dict)  # display path -> text, for files with findings (code frames)
    warnings: list = field(default_factory=list)  # one line each, printed to stderr
    notes: list = field(default_factory=list)  # one line each, printed to stderr under --verbose
    checked_paths: frozenset = frozenset()  # display paths of every file in the run
    codes: frozenset = frozenset()  # the codes that could be reported (enabled rules, BG000)
    fixed: int = 0  # findings fixed by --fix (bgcheck/run/fixes.py); ``diagnostics`` are those that remain


@dataclass(frozen=True)
class CheckOptions:
    """What phase 2 checks, and with what. The CLI checks every file (``report_for`` None: the
    bundle of every result can be cached); named files, stdin and the language server check
    ``report_for`` against the whole project."""

    select: Optional[Sequence[str]] = None  # --select: replaces the configured select, extend-select and ignore
    ignore: Sequence[str] = ()  # --ignore: over the configured lists
    runtimes: Mapping = field(default_factory=dict)  # key -> Runtime (model/runtimes.py)
    report_for: Optional[Collection[str]] = None  # display paths to check and report; None: every unit
    cache: object = None  # a load.cache.Cache, or None
    need_index: bool = False  # build the index even when every result comes from the cache
    extend_select: Sequence[str] = ()  # --extend-select: over the configured lists


def enabled_rules(config: Config, select=None, ignore=(), extend_select=()) -> list[type[Rule]]:
    """Rules after the configuration's select/ignore, the command line's and preview mode (see
    ``selected``). Preview rules run only in preview mode, even when selected."""
    from bgcheck.rules import all_rules

    return [rule for rule in all_rules() if _enabled(rule.code, rule.preview, config, select, ignore, extend_select)]


def enabled_codes(config: Config, select=None, ignore=(), extend_select=()) -> list[str]:
    """The codes of ``enabled_rules``, from the rule catalog (no rule module imported)."""
    return [code for code, _name, _severity, _summary, preview, *_rest in catalog.RULES if _enabled(code, preview, config, select, ignore, extend_select)]


def _enabled(code: str, preview: bool, config: Config, select, ignore, extend_select) -> bool:
    return (config.preview or not preview) and selected(code, config, select, ignore, extend_select)


def selected(code: str, config: Config, select=None, ignore=(), extend_select=()) -> bool:
    """Whether ``code`` runs, as ruff decides it: the configuration's lists, then the command
    line's (``select``, ``ignore``, ``extend_select``) over them. ``--select`` starts over (the
    configured select, extend-select and ignore no longer count); ``--extend-select`` turns codes
    on over the configured ``ignore``; ``--ignore`` turns them off. Within one of the two, ignore
    wins. Codes that run only when named (BG001) need a prefix longer than "BG"."""
    explicit = code in EXPLICIT_ONLY_CODES
    named = (code, *catalog.former_codes(code))  # a list written before a rule split off still names it

    def chosen(prefixes) -> bool:
        return any(c.startswith(prefix) and (len(prefix) > 2 or not explicit) for c in named for prefix in prefixes)

    def ignored(prefixes) -> bool:
        return ignored_by(code, prefixes)

    if select is not None:
        on = chosen(select) or chosen(extend_select)
    else:
        configured = config.effective_select()
        on = (not explicit if configured is None else chosen(configured)) or chosen(config.extend_select)
        on = (on and not ignored(config.ignore)) or chosen(extend_select)
    return on and not ignored(ignore)


# ---------------------------------------------------------------------------
# phase 1


def load_units(paths: Sequence[Path], config: Config, cwd: Optional[Path] = None, jobs: Optional[int] = 1, cache=None) -> list[FileUnit]:
    """Phase 1 for every file the paths name, on ``jobs`` processes (None: one per CPU)."""
    items = file_items(paths, config, cwd)
    workers = parallel.workers_for(jobs, len(items))
    if workers > 1:
        return parallel.phase1(items, workers, cache)
    return [load_unit(path, display, cache) for path, display in items]


def _report_skipped(result: RunResult, skipped: list) -> RunResult:
    for path, reason, warn in skipped:
        (result.warnings if warn else result.notes).append(f"{path}: {reason}")
    return result


def collect_project(
    paths: Sequence[Path], config: Config, runtimes_file: Optional[Path] = None, jobs: Optional[int] = 1, cache=None
) -> tuple[ProjectIndex, list[Diagnostic]]:
    """Phase 1 only: the project index (with jobs), and BG000 for files that could not be analysed."""
    from bgcheck.model.build import build_index_isolated

    runtimes = load_runtimes(config, runtimes_file)
    units = [ensure_summary(unit, cache) for unit in load_units(paths, config, jobs=jobs, cache=cache)]
    index = build_index_isolated(units, config, console_scripts(config.root), runtimes)
    return index, [u.error for u in units if u.error is not None]


@dataclass(frozen=True)
class RunRequest:
    """One run's inputs, built by the CLI (the language server checks units it keeps, with
    ``check_units``). ``stdin``: (path, bytes): check these bytes as that file of its project (an
    editor's or a formatter's unsaved buffer); nothing is written to it, and ``paths`` are then
    ignored."""

    paths: Sequence[Path]
    config: Config
    select: Optional[Sequence[str]] = None  # --select: replaces the configured select, extend-select and ignore
    ignore: Sequence[str] = ()  # --ignore: over the configured lists
    extend_select: Sequence[str] = ()  # --extend-select: over the configured lists
    cwd: Optional[Path] = None  # paths are shown relative to it (default: the current directory)
    runtimes_file: Optional[Path] = None  # --runtimes, over the configured one
    jobs: Optional[int] = 1  # processes (None: one per CPU)
    cache: object = None  # a load.cache.Cache, or None
    need_index: bool = False  # build the index even when every result comes from the cache
    stdin: Optional[tuple[Path, bytes]] = None


def run(request: RunRequest) -> RunResult:
    """Phase 1, the index and phase 2 for the files the request names (or its stdin buffer)."""
    config, cwd, cache, stdin, jobs = request.config, request.cwd, request.cache, request.stdin, request.jobs
    runtimes = load_runtimes(config, request.runtimes_file)  # a bad runtimes file fails before any work
    skipped: list = []
    prepared: dict = {}
    if stdin is not None:
        items, report_for = stdin_items(stdin[0], config, cwd, skipped)
        stdin_path, shown = next(item for item in items if item[1] in report_for)
        prepared[stdin_path] = (stdin[1], content_key(stdin_path, shown, stdin[1]))
        jobs = 1  # the stdin text lives in this process
    else:
        # What the last run's walk learnt of each folder by its stat: unchanged folders are not listed (file_states.py).
        folders = FolderStates(cache, config.root, config.all_excludes()) if cache is not None else None
        items, report_for = project_items(request.paths, config, cwd, skipped, folders)
        if folders is not None:
            folders.save()
    # What the last run learnt of each file by its stat: unchanged files are not read (file_states.py).
    states = FileStates(cache, cwd) if cache is not None and stdin is None else None
    workers = parallel.workers_for(jobs, len(items))
    if workers > 1 and cache is not None and cache.has_kind("digests"):  # a first run would read every file twice
        unknown = [item for item in items if states.lookup(*item) is None]
        prepared = _prepare(unknown, states)
        if len(items) - len(unknown) + sum(cache.has("digests", key) for _data, key in prepared.values()) >= 0.95 * len(items):
            workers = 1  # phase 1 is reading, not parsing: here beats sending summaries through processes
    options = CheckOptions(request.select, request.ignore, runtimes, report_for, cache, request.need_index, request.extend_select)
    if workers == 1:
        try:
            result = _run_here(items, config, options, prepared, states)
        except FileChanged:  # a file changed while this run read it: read every file now
            result = _run_here(items, config, options, prepared, None)
        return _report_skipped(result, skipped)
    # Several processes for the per-file work of both phases (run/parallel.py).
    for path, _display in items if states is not None else ():
        states.stat(path)  # before the workers read the files: the next run's states
    units = parallel.phase1(items, workers, cache)
    result = check_units(units, config, options, workers)
    if states is not None:
        for unit in units:
            states.remember(unit.path, unit.display, unit.content_key, unit.summary_digest, unit.error)
        states.save()
    return _report_skipped(result, skipped)


def _run_here(items, config: Config, options: "CheckOptions", prepared: dict, states: Optional[FileStates]) -> "RunResult":
    """Phase 1 and phase 2 in this process; then the files' states are saved for the next run."""
    units = [load_unit(path, display, options.cache, prepared.get(path), states) for path, display in items]
    result = check_units(units, config, options)
    if states is not None:
        states.save()
    return result


def _prepare(items, states: Optional[FileStates]) -> dict:
    """path -> (bytes, cache key) for every readable file under the size limit (each file's stat
    taken before it is read, for its state)."""
    prepared = {}
    for path, display in items:
        if states is not None:
            states.stat(path)
        data, error = read_source(path, display)
        if error is None:
            prepared[path] = (data, content_key(path, display, data))
    return prepared


# ---------------------------------------------------------------------------
# phase 2


def check_units(
    units: Sequence[FileUnit], config: Config, options: CheckOptions = CheckOptions(), jobs: int = 1
) -> RunResult:
    """Phase 2 over analysed units: build the index from all of them, then check
    ``options.report_for`` (display paths; default: every unit). With a cache, files whose result
    is stored under the same keys are not checked again, and the index is built only if one is
    not. ``jobs``: the processes that check them (run/parallel.py); 1, this one."""
    return _Phase2(units, config, options, jobs).run()


class _Phase2:
    """One phase-2 run: the enabled rules, the project index (built at most once, only when a
    result is not cached), and the findings by display path."""

    def __init__(self, units: Sequence[FileUnit], config: Config, options: CheckOptions, jobs: int) -> None:
        self.units, self.config, self.options, self.jobs = units, config, options, jobs
        self.cache = options.cache
        self.report_for = options.report_for
        self.runtimes = options.runtimes or {}
        self.codes = enabled_codes(config, options.select, options.ignore, options.extend_select)
        self.bg000_enabled = selected(BG000_CODE, config, options.select, options.ignore, options.extend_select)
        self.per_file = per_file_ignores(config)
        self.found: dict[str, list[Diagnostic]] = {}
        self._index: Optional[ProjectIndex] = None
        self.project_key = ""  # set by run() when there is a cache
        self.model_key = ""  # the key of the stored project models (model/persist.py)
        self.restored = None  # a persist.Restored: the index came from stored models
        self.models_storable = False  # the index was built here, and no summary broke it
        self.cached_raw: dict[str, tuple] = {}  # display -> the raw results read from the cache, with their foreign files (for the bundle)
        self._digests: Optional[dict[str, str]] = None
        self._model_settings: Optional[str] = None

    def index(self) -> ProjectIndex:
        from bgcheck.model.build import build_index_isolated

        if self._index is None:
            self._index = self.restored_index()
        if self._index is None:
            for unit in self.units:
                ensure_summary(unit, self.cache)
            errors = sum(unit.error is not None for unit in self.units)
            self._index = build_index_isolated(self.units, self.config, console_scripts(self.config.root), self.runtimes)
            # the models of a run where a summary broke them are not kept (its BG000 comes from building them)
            self.models_storable = errors == sum(unit.error is not None for unit in self.units)
        return self._index

    def restored_index(self) -> Optional[ProjectIndex]:
        """The index from the models an earlier run stored for the same summaries and settings
        (model/persist.py), summaries read as they are asked for; None when there are none. Not
        for worker processes (a lazy index stays in this process)."""
        if self.cache is None or self.jobs > 1:
            return None
        from bgcheck.load.serial import DataError
        from bgcheck.model import persist

        self.model_key = persist.model_key(self.units, self.model_settings())
        data = self.cache.get("models", self.model_key)
        if data is None:
            data = self.relocated_models(self.model_settings())
        if data is None:
            return None
        by_display = {unit.display: unit for unit in self.units if unit.error is None}

        def load(display: str):
            unit = by_display.get(display)
            return ensure_summary(unit, self.cache).summary if unit is not None else None

        try:
            self.restored = persist.Restored(data, load, self.runtimes)
        except (DataError, TypeError, ValueError, KeyError, RecursionError):  # not an entry of the right shape: built again
            self.cache.discard()
            return None
        return self.restored.index

    def model_settings(self) -> str:
        """What the project models are built from besides the summaries (model/persist.py settings_key), once per run."""
        from bgcheck.model import persist

        if self._model_settings is None:
            self._model_settings = persist.settings_key(self.config, console_scripts(self.config.root), self.runtimes)
        return self._model_settings

    def relocated_models(self, settings: str) -> Optional[dict]:
        """The last models stored, moved to this run's lines, when the files that changed since
        only moved lines (model/persist.py: relocate); stored under this run's key."""
        from bgcheck.model import persist

        last = self.cache.get("models", persist.LAST_KEY, counted=False)
        if type(last) is not dict or type(last.get("key")) is not str:
            return None
        data = persist.relocate(
            self.cache.get("models", last["key"], counted=False), self.units, settings,
            lambda key: cached_summary(self.cache, key), lambda unit: ensure_summary(unit, self.cache).summary,
        )
        if data is not None:
            self.cache.put("models", self.model_key, data)
            self.cache.put("models", persist.LAST_KEY, {"key": self.model_key})
        return data

    def store_models(self, facts: dict, closures: dict) -> None:
        """Keep the models built in this run (or the facts a restored entry lacked) for the next."""
        from bgcheck.load.serial import DataError
        from bgcheck.model import persist

        if self.restored is not None and set(facts) <= set(self.restored.facts):
            return
        if self.restored is None and not self.models_storable:
            return
        settings = self.model_settings()
        if not self.model_key:
            self.model_key = persist.model_key(self.units, settings)
        try:
            if self.restored is not None:
                self.cache.put("models", self.model_key, self.restored.with_facts(facts))
            else:
                self.cache.put("models", self.model_key, persist.encode_project(self._index, facts, closures, self.units, settings))
        except (DataError, TypeError, ValueError, RecursionError):
            return  # a model holds what cannot be stored: built again next time
        self.cache.put("models", persist.LAST_KEY, {"key": self.model_key})

    def digests(self) -> dict[str, str]:
        """display path -> summary digest of every analysed file (what a stored result's notes saw)."""
        if self._digests is None:
            self._digests = {unit.display: unit.summary_digest for unit in self.units if unit.error is None}
        return self._digests

    def reported(self, unit: FileUnit) -> bool:
        return self.report_for is None or unit.display in self.report_for

    def ignored(self, unit: FileUnit) -> tuple[str, ...]:
        return ignored_codes(unit.path, self.config.root, self.per_file)

    def report_error(self, unit: FileUnit) -> None:
        """The unit's BG000, unless it is disabled, ignored for the file, or silenced by a noqa on its line."""
        line = unit.error.location.line
        if self.bg000_enabled and not ignored_by(BG000_CODE, self.ignored(unit)) and not is_suppressed(parse_noqa(ensure_text(unit).text), BG000_CODE, (line,)):
            self.found[unit.display] = [unit.error]

    def run(self) -> RunResult:
        static = project_key = ""
        if self.cache is not None:
            scripts = console_scripts(self.config.root)
            static = cache_keys.static_key(self.config, self.runtimes, self.codes, scripts)
            project_key = cache_keys.project_key(static, self.units)
        self.project_key = project_key
        # Nothing changed since a run with the same project key: its results, in one read.
        bundle = self.cached_bundle(project_key)
        file_keys: dict[str, str] = {}
        if self.cache is not None and bundle is None and any(u.error is None for u in self.units):
            from bgcheck.model.facts import facts_digest
            from bgcheck.rules import facts_read

            index = self.index()
            known = dict(self.restored.facts) if self.restored is not None else {}
            facts = facts_digest(index, facts_read(self.codes), known)  # the facts the enabled rules read
            closures = self.restored.closures if self.restored is not None else cache_keys.closure_hashes(self.units, self.cache)
            keyed = [unit for unit in self.units if self.reported(unit)]  # named files: only theirs are looked up
            file_keys = cache_keys.file_keys(keyed, facts, static, self.cache, closures)
            self.store_models(known, closures)
        to_check = self.from_cache(bundle, file_keys)
        raw_results = self.check(to_check, file_keys) if to_check else {}
        if self.cache is not None and bundle is None and self.report_for is None:
            cache_keys.store_bundle(self.cache, project_key, self.units, file_keys, {**self.cached_raw, **raw_results})
        return self.result()

    def _under_project_key(self, label: tuple, compute, keep: bool = True) -> list[str]:
        """Warnings that follow from the project key (every file and every setting): a run under a
        known key reads them back instead of computing them (``keep``: whether this run may).
        Not counted as hits or misses: those are about files' summaries and results."""
        from bgcheck.load.cache import digest

        key = digest(*label, self.project_key) if self.project_key and keep else ""
        if self.cache is not None and key:
            cached = self.cache.get("warnings", key, counted=False)
            if cached is not None:
                return cached
        warnings = compute()
        if self.cache is not None and key:
            self.cache.put("warnings", key, warnings)
        return warnings

    def project_warnings(self) -> list[str]:
        """What the project's models say is amiss: configured runtimes that match no job or lock,
        and job frameworks the project imports but declares no job of (kept under the project key,
        so a warm run builds no index for them)."""
        return self._under_project_key(("project warnings", 2), self._model_warnings)

    def _model_warnings(self) -> list[str]:
        from bgcheck.model.jobs import inventory_warning
        from bgcheck.model.locks import unmatched_runtime_keys

        index = self.index()
        warnings = [
            f"runtime {name!r} ({self.runtimes[name].source}) matches no job or lock"
            for name in unmatched_runtime_keys(self.runtimes, index.jobs, index.locks)
        ]
        warnings.extend(inventory_warning(label, module) for label, module in index.frameworks_without_jobs)
        return warnings

    def noqa_warnings(self) -> list[str]:
        """One warning per malformed ``# noqa`` in the files reported (``# noqa BG101``: ruff's
        words), by path and line. A whole-project run keeps them under the project key (a warm
        run reads no file for them); after an edit, each file's are taken from the last run's
        when its content key is the same, so only the files read anyway are read."""
        return self._under_project_key(("noqa warnings", 1), self._noqa_warnings, keep=self.report_for is None)

    def _noqa_warnings(self) -> list[str]:
        from bgcheck.load.cache import digest

        by_file = self._noqa_warnings_by_file()
        if self.cache is not None:
            # The last run's, one row per file: its content key, then each warning after a NUL.
            rows = [row for content, found in by_file.values() for row in ([content] + [f"{content}\0{w}" for w in found])]
            self.cache.put("warnings", digest("noqa warnings by file", 1), rows)
        return [w for display in sorted(by_file) for w in by_file[display][1]]

    def _noqa_warnings_by_file(self) -> dict:
        """display -> (content key, its malformed-noqa warnings), the last run's where the content key matches."""
        from bgcheck.load.cache import digest
        from bgcheck.run.noqa import malformed_noqa, malformed_noqa_warning

        last: dict[str, list[str]] = {}
        rows = self.cache.get("warnings", digest("noqa warnings by file", 1), counted=False) if self.cache is not None else None
        for row in rows or ():
            content, _nul, warning = row.partition("\0")
            last.setdefault(content, []).extend([warning] if warning else [])
        by_file = {}
        for unit in self.units:
            if not self.reported(unit) or unit.error is not None:
                continue
            if unit.content_key and unit.content_key in last:
                by_file[unit.display] = (unit.content_key, last[unit.content_key])
                continue
            try:
                text = ensure_text(unit).text
            except FileChanged:
                continue  # changed since it was checked: the next run says
            found = [malformed_noqa_warning(unit.display, line, problem) for line, problem in malformed_noqa(text)]
            by_file[unit.display] = (unit.content_key, found)
        return by_file

    def cached_bundle(self, project_key: str) -> Optional[dict]:
        """Every file's results under the project key (named files take theirs from it: a named
        file gets the findings a whole-project run gives it)."""
        if self.cache is None:
            return None
        bundle = self.cache.get("bundles", project_key)
        if bundle is not None and not (isinstance(bundle, dict) and all(valid_results_entry(v) for v in bundle.values())):
            self.cache.discard()
            return None
        return bundle

    def from_cache(self, bundle: Optional[dict], file_keys: dict[str, str]) -> list[FileUnit]:
        """Fill ``found`` with BG000s and cached results; returns the units still to check."""
        to_check: list[FileUnit] = []
        # The last bundle's results, in one read, for a run that looks up many; named files
        # (pre-commit, an editor) read their own entries (each checked run stores its results).
        recent = cache_keys.recent_results(self.cache) if file_keys and self.report_for is None else {}
        for unit in self.units:
            if not self.reported(unit):
                continue
            if unit.error is not None:
                self.report_error(unit)
                continue
            if bundle is not None and unit.display in bundle:
                self.found[unit.display] = [d for d in bundle[unit.display] if not ignored_by(d.code, self.ignored(unit))]
                continue
            if self.cache is not None and unit.display in file_keys:
                stored = self.cached_result(unit.display, file_keys[unit.display], recent)
                if stored is not None and not valid_result_entry(stored):
                    self.cache.discard()  # checked again and rewritten
                    stored = None
                if stored is not None and foreign_unchanged(stored[1], self.digests()):
                    self.cached_raw[unit.display] = stored
                    self.found[unit.display] = [d for d in stored[0] if not ignored_by(d.code, self.ignored(unit))]
                    continue
            to_check.append(unit)
        return to_check

    def cached_result(self, display: str, key: str, recent: dict) -> Optional[tuple]:
        """The raw results stored under a file's result key, with the files they point into: from
        the last bundle's (``recent``, read once) when its key is the same, else from the file's own entry."""
        found = recent.get(display)
        if found is not None and found[0] == key:
            self.cache.hits += 1
            return found[1]
        return self.cache.get("results", key)

    def check(self, to_check: list[FileUnit], file_keys: dict[str, str]) -> dict[str, list[Diagnostic]]:
        """Check the units (here, or on the workers that loaded them); returns each file's raw
        diagnostics (before per-file ignores) with the files they point into, as cached, and fills ``found``."""
        from bgcheck.run import check

        index = self.index()
        rule_classes = enabled_rules(self.config, self.options.select, self.options.ignore, self.options.extend_select)
        for unit in to_check:
            if unit.error is not None:  # its summary broke the project model (build_index_isolated)
                self.report_error(unit)
        to_check = [unit for unit in to_check if unit.error is None]
        for unit in to_check:
            ensure_summary(unit, self.cache)  # an index restored from stored models reads no summary it is not asked for
            ensure_text(unit)
            unit.index = index
        jobs = parallel.workers_for(self.jobs, len(to_check))  # a few files are checked here
        if jobs > 1:
            outcomes = parallel.phase2(to_check, index, self.config, rule_classes, jobs)
        else:
            outcomes = []
            for unit in to_check:
                outcomes.append(check.check_unit(unit, index, self.config, rule_classes))
        raw_results: dict[str, tuple] = {}
        for unit, diagnostics in zip(to_check, outcomes):
            if self.cache is not None and unit.display in file_keys:
                stored = (diagnostics, foreign_files(unit.display, diagnostics, self.digests()))
                self.cache.put("results", file_keys[unit.display], stored)
                raw_results[unit.display] = stored
            ignored = self.ignored(unit)
            self.found[unit.display] = [
                d for d in diagnostics if not ignored_by(d.code, ignored) and (d.code != BG000_CODE or self.bg000_enabled)
            ]
        return raw_results

    def result(self) -> RunResult:
        result = RunResult(files_checked=len(self.units) if self.report_for is None else len(self.report_for))
        result.checked_paths = frozenset(u.display for u in self.units if self.reported(u))
        result.codes = frozenset(self.codes + ([BG000_CODE] if self.bg000_enabled else []))
        if self.runtimes or self.report_for is None:  # named files (pre-commit, editors): not every run
            result.warnings = self.project_warnings()
        result.warnings = result.warnings + self.noqa_warnings()
        if self.options.need_index:
            self.index()  # --verbose says what the index could not tell
        units = {unit.display: unit for unit in self.units}
        silences = []
        for display, found in self.found.items():
            diagnostics = [d for d in found if not d.silence]
            silences += [d for d in found if d.silence and d.code in result.codes]
            if diagnostics:
                result.diagnostics.extend(diagnostics)
                text = ensure_text(units[display]).text if display in units else ""
                if text:
                    result.sources[display] = text
        result.index = self._index
        result.diagnostics.sort(key=Diagnostic.sort_key)
        # where a rule matched and a model fact kept it silent: --verbose notes, never findings
        result.notes += [f"{d.path}:{d.location.line}:{d.location.column}: {d.code} not reported: {d.message}"
                         for d in sorted(silences, key=Diagnostic.sort_key)]
        return result
