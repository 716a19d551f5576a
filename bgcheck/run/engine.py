"""A run: files -> summaries -> project index -> rules -> diagnostics.

Phase 1 parses every file once and keeps only its summary (plain data).
The project index and the project-wide models (jobs, Celery configuration)
are built once. Phase 2 walks, once, each file that an enabled rule can
find something in, with every enabled rule at once.

Nothing here imports or runs the code under analysis.
"""

from __future__ import annotations

import ast
import gc
import os
import re
import sys
import tokenize
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Iterable, Optional, Sequence

import libcst as cst

from bgcheck.model.celery_config import CeleryConfig
from bgcheck.rules.checker import check_module
from bgcheck.load.config import Config
from bgcheck.diagnostics import BG000_CODE, BG000_NAME, Diagnostic, Location, Severity
from bgcheck.model.execution import ExecutionModel
from bgcheck.model.facts import facts_digest
from bgcheck.load.files import FileTooLarge, NotRegularFile, PathPatterns, discover, read_regular
from bgcheck.load.guards import parse_hazard
from bgcheck.model.jobs import attach_jobs
from bgcheck.run import parallel
from bgcheck.load import serial
from bgcheck.model import transactions
from bgcheck.load.cache import digest
from bgcheck.model.locks import find_locks, unmatched_runtime_keys
from bgcheck.model.money import build_money_model
from bgcheck.run.noqa import is_suppressed, parse_noqa
from bgcheck.model.project import ProjectIndex
from bgcheck.model.runtimes import load_runtimes
from bgcheck.rules import all_rules
from bgcheck.rules.base import Rule
from bgcheck.model.shutdown import build_shutdown_model
from bgcheck.load.summary import ModuleSummary, build_summary

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

MAX_FILE_BYTES = 8 * 1024 * 1024
# Set by the CLI's --debug (or BGCHECK_DEBUG): a file's internal error also prints its traceback.
DEBUG = False

# Phase 1 keeps each file's CST for phase 2 while the kept source stays under
# this budget (a CST costs tens of bytes per source byte); past it, phase 2
# parses again the files it needs. Worker processes never send CSTs back.
KEEP_CST_BUDGET_CHARS = 8 * 1024 * 1024  # about 200 MB of CST
@dataclass
class FileUnit:
    """One file as the engine sees it."""

    path: Path
    display: str  # the path as reported: relative to the working directory when below it
    text: str = ""
    summary: Optional[ModuleSummary] = None
    module: Optional[cst.Module] = None  # kept only while needed
    index: Optional[ProjectIndex] = None
    error: Optional[Diagnostic] = None
    content_key: str = ""  # cache key of the file's bytes (with the cache on)
    summary_digest: str = ""  # digest of the summary: the project digest is made of these
    pending: bool = False  # the summary is in the cache but not read yet (see ensure_summary)

    @property
    def has_async(self) -> bool:
        return "async" in self.text and any(f.is_async for f in self.summary.functions.values())

    @property
    def has_job_code(self) -> bool:
        job_code = self.index.job_code
        return any(name in job_code for name in self.summary.functions)


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


def tune_gc() -> None:
    """Make the cyclic garbage collector rare: parsing allocates millions of short-lived,
    acyclic nodes, and the default thresholds spend about a third of a run scanning them
    (measured: 12.0 s -> 7.9 s on 145k lines, peak memory 270 MiB). Reference counting
    still frees every tree as soon as it is dropped."""
    gc.freeze()
    gc.set_threshold(200_000, 20, 100)


def code_enabled(code: str, select: Optional[Sequence[str]], ignore: Sequence[str]) -> bool:
    if select is not None and not any(code.startswith(prefix) for prefix in select):
        return False
    return not any(code.startswith(prefix) for prefix in ignore)


def enabled_rules(config: Config, select=None, ignore=()) -> list[type[Rule]]:
    """Rules after the configuration's select/ignore and preview mode; ``select`` from the CLI
    replaces the configured one (select and extend-select). Preview rules run only in preview mode, even when selected."""
    chosen_select = select if select is not None else config.effective_select()
    chosen_ignore = tuple(config.ignore) + tuple(ignore)
    return [
        rule
        for rule in all_rules()
        if code_enabled(rule.code, chosen_select, chosen_ignore) and (config.preview or not rule.preview)
    ]


def display_path(path: Path, cwd: Optional[Path] = None) -> str:
    cwd = cwd or Path.cwd()
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(cwd).as_posix()
    except ValueError:
        return absolute.as_posix()


def module_name(path: Path) -> tuple[str, bool]:
    """``pkg/sub/mod.py`` -> ("pkg.sub.mod", False) when pkg and sub hold ``__init__.py``."""
    absolute = Path(os.path.abspath(path))
    is_package = absolute.name == "__init__.py"
    parts = [] if is_package else [absolute.stem]
    folder = absolute.parent
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        parts.append(folder.name)
        folder = folder.parent
    if not parts:  # a lone __init__.py outside any package
        parts.append(absolute.parent.name or "__init__")
    return ".".join(reversed(parts)), is_package


# ---------------------------------------------------------------------------
# phase 1


def _bg000(display: str, message: str, line: int = 1, column: int = 1) -> Diagnostic:
    return Diagnostic(
        code=BG000_CODE,
        name=BG000_NAME,
        severity=Severity.ERROR,
        message=message,
        location=Location(display, line, column, line, column),
    )


def decode_source(data: bytes) -> str:
    """Decode like the interpreter: BOM, then a coding cookie, else UTF-8."""
    encoding, _ = tokenize.detect_encoding(BytesIO(data).readline)
    text = data.decode(encoding)
    return normalize_newlines(text[1:] if text.startswith("\ufeff") else text)


_LONE_CR = re.compile(r"\r(?!\n)")


def normalize_newlines(text: str) -> str:
    """A lone ``\\r`` ends a line for Python and for editors: made a ``\\n``, so that every line
    count (positions, noqa, code frames) agrees. Lines and columns are unchanged."""
    return _LONE_CR.sub("\n", text) if "\r" in text else text


def read_source(path: Path, display: str) -> tuple[Optional[bytes], Optional[Diagnostic]]:
    """A file's bytes, or the BG000 that says why it is not analysed (too large, unreadable,
    not a regular file: a named pipe would block the run, a device never end)."""
    try:
        return read_regular(path, MAX_FILE_BYTES), None
    except FileTooLarge as exc:
        return None, _bg000(display, f"file not analysed: {exc.size / 1048576:.1f} MiB is over the {MAX_FILE_BYTES // 1048576} MiB limit")
    except NotRegularFile as exc:
        return None, _bg000(display, f"file not analysed: {exc.strerror}")
    except OSError as exc:
        return None, _bg000(display, f"file not analysed: cannot read it ({exc.strerror or exc})")


def content_key(path: Path, display: str, data: bytes) -> str:
    """A file's cache key: its bytes, how it is shown, and the module it is (from the package layout)."""
    name, is_package = module_name(path)
    return digest(data, display, name, is_package)


def load_unit(path: Path, display: str, cache=None, prepared: Optional[tuple] = None) -> FileUnit:
    """Phase 1 for one file on disk (from the cache when its bytes are unchanged).
    ``prepared``: the (bytes, cache key) a caller already read and computed.
    Whatever goes wrong is this file's BG000, never the run's."""
    unit = FileUnit(path=path, display=display)
    try:
        return _load_unit(unit, cache, prepared)
    except Exception as exc:
        return _failed(unit, "loading", exc)
    except MemoryError:
        return _failed(unit, "loading", MemoryError("out of memory"))


def _load_unit(unit: FileUnit, cache, prepared: Optional[tuple]) -> FileUnit:
    path, display = unit.path, unit.display
    if prepared is not None:
        data, key = prepared
    else:
        data, unit.error = read_source(path, display)
        if unit.error is not None:
            return unit
        key = None
    if cache is not None:
        if key is None:
            key = content_key(path, display, data)
        unit.content_key = key
        known = cache.get("digests", key)
        valid = isinstance(known, tuple) and len(known) == 2 and isinstance(known[0], str) and (known[1] is None or isinstance(known[1], Diagnostic))
        if known is not None and not valid:
            cache.discard()  # rewritten below
        if valid:
            # The summary itself is read only if this run needs the project index
            # (a bundle of results for the whole unchanged project makes it unnecessary).
            unit.summary_digest, unit.error = known
            unit.pending = unit.error is None
            try:
                unit.text = decode_source(data)
            except (SyntaxError, UnicodeDecodeError, LookupError):
                unit.text = ""
            return unit
        cached = cache.get("summaries", key)
        if cached is not None and not _valid_summary_entry(cached):
            cache.discard()  # the right key over a value of another shape: analysed again and rewritten
            cached = None
        if cached is not None:
            unit.summary, unit.error, unit.summary_digest = cached
            try:
                unit.text = decode_source(data)
            except (SyntaxError, UnicodeDecodeError, LookupError):
                unit.text = ""  # the cached BG000 says why
            return unit
    try:
        text = decode_source(data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
        unit.error = _bg000(display, f"file not analysed: cannot decode it ({_short(exc)})")
    else:
        analyse_text(path, display, text, unit)
    if unit.summary is not None:
        unit.summary_digest = summary_digest(unit.summary)
    if cache is not None:
        cache.put("summaries", key, (unit.summary, unit.error, unit.summary_digest))
        cache.put("digests", key, (unit.summary_digest, unit.error))
    return unit


def ensure_summary(unit: FileUnit, cache) -> FileUnit:
    """Read a pending summary from the cache (or, if it is gone, analyse the file again)."""
    if not unit.pending:
        return unit
    unit.pending = False
    cached = cache.get("summaries", unit.content_key) if cache is not None else None
    if cached is not None and _valid_summary_entry(cached) and cached[2] == unit.summary_digest:
        unit.summary, unit.error, unit.summary_digest = cached
        return unit
    analyse_text(unit.path, unit.display, unit.text, unit)
    if unit.summary is not None:
        unit.summary_digest = summary_digest(unit.summary)
        if cache is not None:
            cache.put("summaries", unit.content_key, (unit.summary, unit.error, unit.summary_digest))
    return unit


def summary_digest(summary: ModuleSummary) -> str:
    """The digest of a summary's canonical encoding (the one the cache stores): the same for
    equal summaries, whichever objects hold them (built here, or read back from the cache)."""
    try:
        return digest(serial.summary_bytes(summary))
    except serial.DataError:  # cannot be stored either: a digest no later run will match
        return digest(os.urandom(16))


def _valid_summary_entry(value) -> bool:
    if not (isinstance(value, tuple) and len(value) == 3):
        return False
    summary, error, summary_digest = value
    return (
        isinstance(summary_digest, str)
        and (summary is None) != (error is None)
        and (summary is None or (isinstance(summary, ModuleSummary) and bool(summary_digest)))
        and (error is None or isinstance(error, Diagnostic))
    )


def _valid_results_entry(value) -> bool:
    return isinstance(value, list) and all(isinstance(d, Diagnostic) for d in value)


def analyse_text(path: Path, display: str, text: str, unit: Optional[FileUnit] = None) -> FileUnit:
    """Phase 1 for one file's text: parse it and summarise it (or a BG000). The LSP server calls
    this with the editor's unsaved text. Whatever goes wrong is this file's BG000, never the run's."""
    unit = unit or FileUnit(path=path, display=display)
    try:
        return _analyse_text(path, display, text, unit)
    except Exception as exc:
        return _failed(unit, "analysing", exc)
    except MemoryError:
        return _failed(unit, "analysing", MemoryError("out of memory"))


def _failed(unit: FileUnit, doing: str, exc: BaseException) -> FileUnit:
    """``unit`` as a BG000 after an unexpected exception: the rest of the run goes on."""
    unit.summary = None
    unit.module = None
    unit.pending = False
    unit.error = internal_error(unit.display, doing, exc)
    return unit


def internal_error(display: str, doing: str, exc: BaseException) -> Diagnostic:
    """BG000 for a file whose analysis failed inside bgcheck (a bug: the message says what to report)."""
    if DEBUG:
        import traceback

        print(f"bgcheck: internal error while {doing} {display}:", file=sys.stderr)
        traceback.print_exception(exc, file=sys.stderr)
    return _bg000(
        display,
        f"file not analysed: bgcheck failed while {doing} it ({type(exc).__name__}: {_short(exc)}); "
        "the other files were checked. This is a bug in bgcheck: please report it with this file",
    )


def _analyse_text(path: Path, display: str, text: str, unit: FileUnit) -> FileUnit:
    text = normalize_newlines(text)
    unit.text = text
    if "\x00" in text:
        unit.error = _bg000(display, "file not analysed: it contains a NUL byte")
        return unit
    hazard = parse_hazard(text)
    if hazard is not None:
        line, reason = hazard
        unit.error = _bg000(display, f"file not analysed: {reason}", line)
        return unit
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        unit.error = _syntax_error(display, text, exc)
        return unit
    except RecursionError:
        unit.error = _too_deep(display, text, "parse")
        return unit
    except Exception as exc:  # libcst raises a few other kinds on exotic input
        unit.error = _bg000(display, f"file not analysed: {type(exc).__name__}: {_short(exc)}")
        return unit
    name, is_package = module_name(path)
    try:
        unit.summary = build_summary(module, display, name, is_package, text)
    except RecursionError:
        unit.error = _too_deep(display, text, "analyse")
        return unit
    unit.module = module  # the caller decides whether to keep it (KEEP_CST_BUDGET_CHARS)
    return unit


_ELIF = re.compile(r"^[ \t]*elif\b", re.MULTILINE)


def _too_deep(display: str, text: str, doing: str) -> Diagnostic:
    """BG000 after a RecursionError, saying where the nesting is (measured on CPython's tree,
    iteratively: only on this failure path)."""
    message = f"file not analysed: it is nested too deeply to {doing}"
    try:
        tree = ast.parse(text)
    except (SyntaxError, RecursionError, MemoryError, ValueError):  # CPython gives up too (10,000 elifs)
        elifs = len(_ELIF.findall(text))
        if elifs > 100:
            return _bg000(display, f"{message}: it has {elifs:,} `elif` branches (each one nests a level deeper)")
        return _bg000(display, message)
    deepest, line, elifs = 0, 1, 0
    stack = [(tree, 0, 0)]  # (node, statement nesting, elif branches in a row)
    while stack:
        node, depth, chain = stack.pop()
        if depth > deepest:
            deepest, line, elifs = depth, getattr(node, "lineno", 1), chain
        for field in ("body", "orelse", "finalbody", "handlers"):
            for child in getattr(node, field, None) or ():
                if isinstance(child, (ast.stmt, ast.excepthandler)):
                    is_elif = field == "orelse" and isinstance(node, ast.If) and isinstance(child, ast.If) and len(node.orelse) == 1
                    stack.append((child, depth + 1, chain + 1 if is_elif else 0))
        for case in getattr(node, "cases", None) or ():
            stack.extend((child, depth + 1, 0) for child in case.body)
    where = (
        f": an `if`/`elif` chain of {elifs + 1:,} branches ending at line {line} (each `elif` nests one level deeper)"
        if elifs > 100
        else f": statements nest {deepest:,} levels deep at line {line}"
        if deepest > 100
        else ""
    )
    return _bg000(display, message + where, line if where else 1)


def _syntax_error(display: str, text: str, exc: cst.ParserSyntaxError) -> Diagnostic:
    """BG000 for a file libcst cannot parse, at the position CPython gives when it agrees."""
    try:
        py_tree = ast.parse(text)  # only on this failure path: CPython's message and position are the ones users know
    except SyntaxError as py_exc:
        line = py_exc.lineno or exc.editor_line
        column = py_exc.offset or 1
        return _bg000(display, f"file not analysed: syntax error: {py_exc.msg}", line, column)
    except (RecursionError, MemoryError, ValueError):
        return _bg000(display, "file not analysed: it is nested too deeply to parse", exc.editor_line, exc.editor_column)
    else:
        tree = py_tree
    first_line = exc.message.splitlines()[0] if exc.message else "syntax error"
    # libcst's own "error at L:C" is more exact than its editor position, which can be a line late
    where = re.search(r"error at (\d+):(\d+)", first_line)
    line, column = (int(where[1]), int(where[2]) + 1) if where else (exc.editor_line, exc.editor_column)
    why, line, column = _libcst_limit(tree, line, column)
    detail = first_line.removeprefix("parser error: ")
    return _bg000(
        display,
        f"file not analysed: it is valid Python, but libcst (the parser bgcheck uses) cannot parse it: {why}"
        f"(libcst: {detail})",
        line,
        column,
    )


def _short_source(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


def _libcst_limit(tree: ast.Module, line: int, column: int) -> tuple[str, int, int]:
    """Which known limit of libcst valid Python at ``line`` runs into, in words (or ""), and where."""
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign) and (node.target.lineno, node.target.col_offset) > (node.lineno, node.col_offset):
            return (
                f"line {node.lineno} annotates a parenthesized target (`({_short_source(node.target)}): ...`), "
                "which libcst does not support; write it without the parentheses ",
                node.lineno,
                node.col_offset + 1,
            )
        if (
            isinstance(node, (ast.Constant, ast.JoinedStr))
            and isinstance(getattr(node, "value", None), (str, bytes, list))
            and node.lineno < line <= (node.end_lineno or 0) + 1
        ):
            return (
                f"lines {node.lineno}-{node.end_lineno} are one implicit concatenation of "
                f"{node.end_lineno - node.lineno + 1:,} lines of string literals, more than libcst can parse in a row ",
                node.lineno,
                node.col_offset + 1,
            )
    return "", line, column


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]


# ---------------------------------------------------------------------------
# the project


def build_index(
    summaries: Iterable[ModuleSummary], config: Config, console_scripts: Optional[dict] = None, runtimes: Optional[dict] = None
) -> ProjectIndex:
    """The index plus the project-wide models every rule consults, built once per run."""
    index = ProjectIndex(summaries)
    index.celery_config = CeleryConfig(index)
    index.jobs = attach_jobs(index, config.job_decorators)
    index.execution = ExecutionModel(index)
    index.shutdown = build_shutdown_model(index, console_scripts or {})
    index.runtimes = runtimes or {}
    index.locks = find_locks(index)
    index.money = build_money_model(index, config)
    index.on_commit_callbacks = transactions.on_commit_callbacks(index)
    index.transaction_helpers = transactions.transaction_helpers(index)
    index.transaction_decorators = transactions.transaction_decorators(index)
    index.atomic_requests = transactions.atomic_requests(index)
    return index


def console_scripts(root: Path) -> dict[str, str]:
    """``[project.scripts]`` of the analysed project's pyproject.toml (entry points for BG404)."""
    path = Path(root) / "pyproject.toml"
    try:
        data = tomllib.loads(read_regular(path, MAX_FILE_BYTES).decode("utf-8"))
    except (OSError, ValueError, RecursionError):  # missing, a FIFO, not TOML: no entry points
        return {}
    project = data.get("project")
    scripts = project.get("scripts") if isinstance(project, dict) else None
    return {str(k): str(v) for k, v in scripts.items()} if isinstance(scripts, dict) else {}


# ---------------------------------------------------------------------------
# phase 2


def check_unit(unit: FileUnit, index: ProjectIndex, config: Config, rule_classes: Sequence[type[Rule]]) -> list[Diagnostic]:
    """Phase 2 for one file. Whatever goes wrong is this file's BG000, never the run's."""
    try:
        return _check_unit(unit, index, config, rule_classes)
    except Exception as exc:
        return [internal_error(unit.display, "checking", exc)]
    except MemoryError:
        return [internal_error(unit.display, "checking", MemoryError("out of memory"))]


def _check_unit(unit: FileUnit, index: ProjectIndex, config: Config, rule_classes: Sequence[type[Rule]]) -> list[Diagnostic]:
    rules = [rule_class(config) for rule_class in rule_classes]
    relevant = [rule for rule in rules if rule.is_relevant(unit)]
    if not relevant:
        return []
    module = unit.module
    if module is None:
        module = cst.parse_module(unit.text)
    try:
        found = check_module(unit.display, module, unit.summary, index, config, relevant)
    except RecursionError:
        return [_too_deep(unit.display, unit.text, "analyse")]
    noqa = parse_noqa(unit.text)
    return [d for d, statement_line in found if not is_suppressed(noqa, d.code, (d.location.line, statement_line))]


def load_units(paths: Sequence[Path], config: Config, cwd: Optional[Path] = None, jobs: Optional[int] = 1, cache=None) -> list[FileUnit]:
    """Phase 1 for every file the paths name, on ``jobs`` processes (None: one per CPU)."""
    items = _items(paths, config, cwd)
    workers = parallel.workers_for(jobs, len(items))
    if workers > 1:
        return parallel.run_phase1(items, workers, cache)
    return _within_cst_budget([load_unit(path, display, cache) for path, display in items])


def _items(paths: Sequence[Path], config: Config, cwd: Optional[Path], skipped: Optional[list] = None) -> list[tuple[Path, str]]:
    """(path, display path) of every file the run checks; ``skipped`` gets (path, reason, warn)
    for what the walk left out (see files.discover)."""
    cwd = cwd or Path.cwd()

    def on_skip(path: str, reason: str, warn: bool) -> None:
        if skipped is not None:
            skipped.append((display_path(Path(path), cwd) + ("/" if path.endswith("/") else ""), reason, warn))

    files = discover([Path(p) for p in paths], config.root, config.all_excludes(), on_skip)
    return [(path, display_path(path, cwd)) for path in files]


def _project_items(
    paths: Sequence[Path], config: Config, cwd: Optional[Path], skipped: Optional[list] = None
) -> tuple[list[tuple[Path, str]], Optional[frozenset[str]]]:
    """The files a run analyses, and the display paths it reports (None: all of them).

    Named files (pre-commit passes the staged files, editors the one being edited) are checked
    against the whole project, the configuration's folder or the nearest pyproject.toml,
    setup.cfg or .git: a task file checked alone still sees the Celery app and settings that
    live in other files, and gets exactly the findings a whole-project run gives it. Folders
    name the project part to index, as before; outside any project the named files are all.
    ``skipped``: what the walk of the named paths left out (see ``_items``)."""
    named = _items(paths, config, cwd, skipped)
    if not config.in_project or not any(Path(p).is_file() for p in paths):
        return named, None
    by_real = {os.path.realpath(path): (path, display) for path, display in _items([config.root], config, cwd)}
    named_real = {os.path.realpath(path): (path, display) for path, display in named}
    if named_real.keys() == by_real.keys():
        return named, None
    by_real.update(named_real)  # spelled as the user named them
    items = sorted(by_real.values(), key=lambda item: item[0].as_posix())
    return items, frozenset(display for _path, display in named_real.values())


def _stdin_items(
    path: Path, config: Config, cwd: Optional[Path], skipped: Optional[list] = None
) -> tuple[list[tuple[Path, str]], frozenset[str]]:
    """The files a run over stdin analyses: its project's files, with ``path`` (which need not
    exist) standing for the stdin text and reported as given."""
    shown = Path(path).as_posix()
    items = [(Path(path), shown)]
    if config.in_project:
        real = os.path.realpath(path)
        items += [item for item in _items([config.root], config, cwd, skipped) if os.path.realpath(item[0]) != real]
        items.sort(key=lambda item: item[0].as_posix())
    return items, frozenset([shown])


def _report_skipped(result: RunResult, skipped: list) -> RunResult:
    for path, reason, warn in skipped:
        (result.warnings if warn else result.notes).append(f"{path}: {reason}")
    return result


def collect_project(
    paths: Sequence[Path], config: Config, runtimes_file: Optional[Path] = None, jobs: Optional[int] = 1, cache=None
) -> tuple[ProjectIndex, list[Diagnostic]]:
    """Phase 1 only: the project index (with jobs), and BG000 for files that could not be analysed."""
    runtimes = load_runtimes(config, runtimes_file)
    units = [ensure_summary(unit, cache) for unit in load_units(paths, config, jobs=jobs, cache=cache)]
    index = build_index_isolated(units, config, console_scripts(config.root), runtimes)
    return index, [u.error for u in units if u.error is not None]


def run(
    paths: Sequence[Path],
    config: Config,
    select=None,
    ignore=(),
    cwd: Optional[Path] = None,
    runtimes_file: Optional[Path] = None,
    jobs: Optional[int] = 1,
    cache=None,
    need_index: bool = False,
    stdin: Optional[tuple[Path, bytes]] = None,
) -> RunResult:
    """``stdin``: (path, bytes): check these bytes as that file of its project (an editor's or a
    formatter's unsaved buffer); nothing is written to it. ``paths`` are then ignored."""
    runtimes = load_runtimes(config, runtimes_file)  # a bad runtimes file fails before any work
    skipped: list = []
    prepared: dict = {}
    if stdin is not None:
        items, report_for = _stdin_items(stdin[0], config, cwd, skipped)
        stdin_path, shown = next(item for item in items if item[1] in report_for)
        prepared[stdin_path] = (stdin[1], content_key(stdin_path, shown, stdin[1]))
        jobs = 1  # the stdin text lives in this process
    else:
        items, report_for = _project_items(paths, config, cwd, skipped)
    workers = parallel.workers_for(jobs, len(items))
    if workers > 1 and cache is not None and cache.has_kind("digests"):  # a first run would read every file twice
        prepared = _prepare(items, cache)
        if sum(cache.has("digests", key) for _data, key in prepared.values()) >= 0.95 * len(items):
            workers = 1  # phase 1 is reading, not parsing: here beats sending summaries through processes
    if workers == 1:
        units = _within_cst_budget([load_unit(path, display, cache, prepared.get(path)) for path, display in items])
        result = check_units(
            units, config, select=select, ignore=ignore, runtimes=runtimes, report_for=report_for, jobs=1, cache=cache, need_index=need_index
        )
        return _report_skipped(result, skipped)
    # Several processes that keep their files' CSTs from phase 1 to phase 2.
    with parallel.Workers(workers, KEEP_CST_BUDGET_CHARS) as pool:
        units = pool.phase1(items, cache)
        result = check_units(
            units,
            config,
            select=select,
            ignore=ignore,
            runtimes=runtimes,
            report_for=report_for,
            jobs=workers,
            cache=cache,
            need_index=need_index,
            pool=pool,
        )
        return _report_skipped(result, skipped)


def _prepare(items, cache) -> dict:
    """path -> (bytes, cache key) for every readable file under the size limit."""
    prepared = {}
    for path, display in items:
        data, error = read_source(path, display)
        if error is None:
            prepared[path] = (data, content_key(path, display, data))
    return prepared


def _within_cst_budget(units: list) -> list:
    kept = 0
    for unit in units:
        if unit.module is not None:
            kept += len(unit.text)
            if kept > KEEP_CST_BUDGET_CHARS:
                unit.module = None
    return units


def check_units(
    units: Sequence[FileUnit],
    config: Config,
    select=None,
    ignore=(),
    runtimes: Optional[dict] = None,
    report_for=None,
    jobs: Optional[int] = 1,
    cache=None,
    need_index: bool = False,
    pool=None,
) -> RunResult:
    """Phase 2 over analysed units: build the index from all of them, then check ``report_for``
    (display paths; default: every unit). The CLI checks everything; the LSP server checks the
    open documents against the whole workspace. With a cache, files whose result is stored under
    the same project digest are not checked again, and the index is built only if one is not."""
    runtimes = runtimes or {}
    rule_classes = enabled_rules(config, select, ignore)
    bg000_enabled = code_enabled(BG000_CODE, select if select is not None else config.effective_select(), tuple(config.ignore) + tuple(ignore))
    per_file_ignores = [(PathPatterns([pattern]), codes) for pattern, codes in config.per_file_ignores]
    static_key = project_key = ""
    if cache is not None:
        # What every file's result depends on besides the project's code.
        static_key = digest(
            config,
            sorted((k, v.seconds, v.source) for k, v in runtimes.items()),
            [rule.code for rule in rule_classes],
            sorted(console_scripts(config.root).items()),  # entry points (BG404) come from pyproject.toml
        )
        # the bundle of every file's results: any byte of any file, or any setting, changes it
        project_key = digest(static_key, sorted((u.display, u.content_key, u.summary_digest) for u in units))

    result = RunResult(files_checked=len(units) if report_for is None else len(report_for))
    result.checked_paths = frozenset(u.display for u in units if report_for is None or u.display in report_for)
    result.codes = frozenset([rule.code for rule in rule_classes] + ([BG000_CODE] if bg000_enabled else []))
    index: Optional[ProjectIndex] = None

    def project() -> ProjectIndex:
        nonlocal index
        if index is None:
            for unit in units:
                ensure_summary(unit, cache)
            index = build_index_isolated(units, config, console_scripts(config.root), runtimes)
        return index

    def report_error(unit: FileUnit) -> None:
        ignored = _ignored_codes(unit.path, config.root, per_file_ignores)
        line = unit.error.location.line
        if bg000_enabled and not ignored_by(BG000_CODE, ignored) and not is_suppressed(parse_noqa(unit.text), BG000_CODE, (line,)):
            found[unit.display] = [unit.error]

    to_check: list[FileUnit] = []
    found: dict[str, list[Diagnostic]] = {}
    # Nothing changed since a run with the same project digest: its results, in one read.
    bundle = cache.get("bundles", project_key) if cache is not None and report_for is None else None
    if bundle is not None and not (isinstance(bundle, dict) and all(_valid_results_entry(v) for v in bundle.values())):
        cache.discard()
        bundle = None
    file_keys: dict[str, str] = {}
    if cache is not None and bundle is None and any(u.error is None for u in units):
        file_keys = _file_keys(units, project(), static_key)
    for unit in units:
        if report_for is not None and unit.display not in report_for:
            continue
        ignored = _ignored_codes(unit.path, config.root, per_file_ignores)
        if unit.error is not None:
            report_error(unit)
            continue
        if bundle is not None and unit.display in bundle:
            found[unit.display] = [d for d in bundle[unit.display] if not ignored_by(d.code, ignored)]
            continue
        if cache is not None and unit.display in file_keys:
            stored = cache.get("results", file_keys[unit.display])
            if stored is not None and not _valid_results_entry(stored):
                cache.discard()  # checked again and rewritten
                stored = None
            if stored is not None:
                found[unit.display] = [d for d in stored if not ignored_by(d.code, ignored)]
                continue
        to_check.append(unit)

    raw_results: dict[str, list[Diagnostic]] = {}
    if to_check:
        index = project()
        for unit in to_check:
            if unit.error is not None:  # its summary broke the project model (build_index_isolated)
                report_error(unit)
        to_check = [unit for unit in to_check if unit.error is None]
        for unit in to_check:
            unit.index = index
        workers = parallel.workers_for(jobs, len(to_check))
        if pool is not None:
            by_display = pool.phase2([unit.display for unit in to_check], index, config, rule_classes, cache)
            outcomes = [by_display[unit.display] for unit in to_check]
        elif workers > 1:
            outcomes = parallel.run_phase2(to_check, workers, index, config, rule_classes)
        else:
            outcomes = []
            for unit in to_check:
                outcomes.append(check_unit(unit, index, config, rule_classes))
                if report_for is None:
                    unit.module = None  # a one-shot run frees each CST as it goes
        for unit, diagnostics in zip(to_check, outcomes):
            if cache is not None and unit.display in file_keys:
                cache.put("results", file_keys[unit.display], diagnostics)
            raw_results[unit.display] = diagnostics
            ignored = _ignored_codes(unit.path, config.root, per_file_ignores)
            found[unit.display] = [
                d for d in diagnostics if not ignored_by(d.code, ignored) and (d.code != BG000_CODE or bg000_enabled)
            ]

    if cache is not None and bundle is None and report_for is None:
        _store_bundle(cache, project_key, units, file_keys, raw_results)
    if runtimes or need_index:
        index = project()
        result.warnings = [
            f"runtime {key!r} ({runtimes[key].source}) matches no job or lock"
            for key in unmatched_runtime_keys(runtimes, index.jobs, index.locks)
        ]
    texts = {unit.display: unit.text for unit in units}
    for display, diagnostics in found.items():
        if diagnostics:
            result.diagnostics.extend(diagnostics)
            if texts.get(display):
                result.sources[display] = texts[display]
    result.index = index
    result.diagnostics.sort(key=Diagnostic.sort_key)
    return result


def build_index_isolated(units: Sequence[FileUnit], config: Config, scripts: Optional[dict], runtimes: Optional[dict]) -> ProjectIndex:
    """build_index over the units' summaries. Should a summary make the project-wide models fail
    (a bug in bgcheck), its file becomes a BG000 and the index is built from the others."""
    try:
        return build_index([u.summary for u in units if u.summary is not None], config, scripts, runtimes)
    except Exception:
        pass
    for unit in units:
        if unit.summary is not None:
            try:
                build_index([unit.summary], config, scripts, runtimes)
            except Exception as exc:
                _failed(unit, "modelling the project with", exc)
    return build_index([u.summary for u in units if u.summary is not None], config, scripts, runtimes)


def _store_bundle(cache, project_key: str, units, file_keys: dict, raw_results: dict) -> None:
    """Every file's diagnostics (before per-file ignores) under the project digest."""
    bundle: dict[str, list] = {}
    for unit in units:
        if unit.error is not None:
            continue
        diagnostics = raw_results.get(unit.display)
        if diagnostics is None:
            diagnostics = cache.get("results", file_keys[unit.display]) if unit.display in file_keys else None
        if diagnostics is None or not _valid_results_entry(diagnostics):
            return  # incomplete: no bundle this time
        bundle[unit.display] = diagnostics
    cache.put("bundles", project_key, bundle)


def _file_keys(units, index: ProjectIndex, static_key: str) -> dict[str, str]:
    """Each file's result key: its own bytes, the interfaces of the project modules it imports
    (transitively: names resolve through them), and the project-wide facts every rule consults
    (jobs, job code, shutdown paths, locks, money chains, Celery settings, ...). An edit that
    changes none of these for a file leaves its cached result valid."""
    facts = facts_digest(index)
    closures = _import_closure_hashes(units)
    keys = {}
    for unit in units:
        if unit.summary is not None and unit.content_key:
            keys[unit.display] = digest(unit.content_key, static_key, facts, closures[unit.summary.module])
    return keys


def _interface(summary: ModuleSummary) -> bytes:
    """What another module can learn from this one when it resolves names through it: imports
    (re-exports), module-level bindings, classes, and each function's kind and flags. Not the
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
            (f.qualname, f.is_async, f.is_generator, f.endless_loop, f.params, [add(d) for d in f.decorators], f.class_qualname,
             add(f.returns))  # what a caller's receiver turns out to be (``make_pool().submit``)
            for f in summary.functions.values()
        ]
        constants = [(k, add(v)) for k, v in sorted(summary.constants.items())]
        return serial.dumps((summary.module, sorted(summary.imports.items()), constants, classes, functions, table.rows))
    except (TypeError, ValueError):  # cannot be encoded: an interface no later run will match
        return os.urandom(16)


def _import_closure_hashes(units) -> dict[str, int]:
    """module -> a hash of the interfaces of every project module it imports, directly or not.

    Sets of modules are bitsets (one bit per module), grown to a fixpoint (import
    cycles are common); a closure's hash is the XOR of its members' hashes."""
    by_module = {u.summary.module: u for u in units if u.summary is not None}
    names = sorted(by_module)
    position = {name: i for i, name in enumerate(names)}
    member_hash = [int(digest(name, _interface(by_module[name].summary))[:32], 16) for name in names]
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


def ignored_by(code: str, prefixes: Sequence[str]) -> bool:
    return any(code.startswith(prefix) for prefix in prefixes)


def _ignored_codes(path: Path, root: Path, per_file_ignores) -> tuple[str, ...]:
    if not per_file_ignores:
        return ()
    try:
        rel = Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        rel = Path(path).as_posix()
    codes: list[str] = []
    for patterns, pattern_codes in per_file_ignores:
        if patterns.matches(rel):
            codes.extend(pattern_codes)
    return tuple(codes)
