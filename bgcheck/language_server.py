"""The language server: ``bgcheck lsp``, over stdio, built on pygls.

What it does:

* diagnostics for every open Python document, published on open, on change
  (debounced) and on save, computed with the whole workspace's context: the
  workspace is read once (phase 1 of every file, kept per file), a changed
  document replaces only its own file, and each run checks the open
  documents against the project index built from all files. So an edit in a
  callee module re-publishes the diagnostics of its open callers;
* configuration from the workspace's ``pyproject.toml`` / ``bgcheck.toml``,
  reloaded when the file is saved or changes on disk; a broken configuration
  is shown with ``window/showMessage`` and the previous one kept;
* code actions: a rule's own fix (``bgcheck.diagnostics.Fix``), "suppress with ``# noqa: CODE``"
  (merged into an existing ``# noqa: X`` list on the line), and ``source.fixAll.bgcheck``: every
  safe fix of the document in one edit;
* hover over a diagnostic: its rule's summary, its message and explanation, and a link to the rule page
  (over a code in a ``# noqa:`` comment: the summary and the link).

Threads: pygls runs the handlers on an asyncio loop; the analysis runs on one
worker thread (with the big stack and recursion limit the CLI uses, since
libcst recurses), one job at a time, so the server stays responsive and the
workspace state (`WorkspaceState`) is only ever touched by that thread.

Initialization options (all optional): ``{"debounce": seconds}``, the delay
between the last keystroke and the analysis (default 0.3).

Documents under the workspace root that the configuration excludes (or that
discovery skips: hidden folders, virtualenvs, .gitignore) get no diagnostics.
Documents outside the workspace root, and new files not saved yet, are checked
on their own.
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import re
import sys
import threading
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Optional
from urllib.parse import unquote

from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.uris import to_fs_path

from bgcheck import __version__
from bgcheck.load.config import Config, ConfigError, default_config, load_config
from bgcheck.diagnostics import BG000_CODE, BG000_NAME, BG000_SUMMARY, Applicability, Diagnostic, Location
from bgcheck.load.source import display_path
from bgcheck.load.reparse import Parsed
from bgcheck.load.unit import FileUnit, analyse_text, load_unit
from bgcheck.run.engine import CheckOptions, check_units
from bgcheck.load.files import discover
from bgcheck.run.fixes import apply_pass
from bgcheck.run.noqa import DIRECTIVE as _NOQA_DIRECTIVE
from bgcheck.run.noqa import noqa_insertion
from bgcheck.run.process import STACK_BYTES, raise_recursion_limit, tune_gc
from bgcheck.rules import catalog
from bgcheck.rules.pages import page_path
from bgcheck.report.sarif import help_uri
from bgcheck.report.lsp import file_uri, lsp_diagnostic, lsp_range, utf16_column
from bgcheck.rules import all_rules
from bgcheck.model.runtimes import load_runtimes

__all__ = ["BgcheckLanguageServer", "Finding", "WorkspaceState", "noqa_edit", "serve", "server"]

logger = logging.getLogger("bgcheck.language_server")

DEFAULT_DEBOUNCE = 0.3  # seconds between the last change and the analysis
CONFIG_FILES = ("pyproject.toml", "bgcheck.toml")
KNOWN_CODES = tuple([BG000_CODE] + [rule.code for rule in all_rules()])
_CONVERTER = get_converter()
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # LSP's line breaks (not str.splitlines's)


@dataclass(frozen=True)
class Finding:
    """One published diagnostic: the engine's, its LSP form, and its fix as an LSP edit (if any)."""

    diagnostic: Diagnostic
    lsp: dict  # as sent (camelCase JSON)
    fix: Optional[tuple[str, dict]] = None  # (title, WorkspaceEdit.changes JSON)


# ---------------------------------------------------------------------------
# the workspace, as the analysis thread sees it


WORKSPACE, LOOSE, EXCLUDED = "workspace", "loose", "excluded"


class WorkspaceState:
    """Phase-1 units of the whole workspace, the editor's text of the open documents, the
    configuration. Used only from the analysis thread."""

    def __init__(self, root: Optional[Path]) -> None:
        self.root = root  # a real path, or None without a workspace folder
        self.config: Config = default_config(root or Path.cwd())
        self.runtimes: dict = {}
        self.files: dict[str, Path] = {}  # real path -> path as discovered, for the workspace's files
        self.units: dict[str, FileUnit] = {}  # real path -> unit, for the workspace's files
        self.documents: dict[str, str] = {}  # real path -> the editor's text, for open documents
        self.loose: dict[str, FileUnit] = {}  # open documents outside the workspace: checked alone
        self.parsed: dict[str, Parsed] = {}  # real path -> its last text that parsed: the next edit is spliced into it
        self.errors: list[str] = []  # internal errors of the current job, for window/logMessage

    # -- loading -----------------------------------------------------------

    def load(self) -> list[tuple[types.MessageType, str]]:
        messages, ok = self.reload_config(initial=True)
        if not ok:
            self.rediscover()
        return messages

    def reload_config(self, initial: bool = False) -> tuple[list[tuple[types.MessageType, str]], bool]:
        """Read the configuration again; on an error keep the previous one and say so."""
        start = self.root or Path.cwd()
        try:
            config = load_config(start=start, known_codes=KNOWN_CODES)
            runtimes = load_runtimes(config)
        except (ConfigError, OSError, ValueError) as exc:
            kept = "using the default configuration" if initial else "keeping the previous configuration"
            return [(types.MessageType.Error, f"bgcheck: {exc} ({kept})")], False
        self.config, self.runtimes = config, runtimes
        self.rediscover()
        return [], True

    def rediscover(self) -> None:
        """Walk the workspace again: read new files, forget removed ones, re-place open documents."""
        if self.root is None:
            found: list[Path] = []
        else:
            try:
                found = discover([self.root], self.config.root, self.config.all_excludes())
            except OSError as exc:
                logger.warning("cannot walk the workspace %s: %s", self.root, exc)
                return
        files: dict[str, Path] = {}
        for path in found:
            files.setdefault(os.path.realpath(path), path)
        for real in list(self.units):
            if real not in files:
                del self.units[real]
        for real, path in files.items():
            if real not in self.units and real not in self.documents:
                self.units[real] = load_unit(path, self.display(path))
        self.files = files
        for real in list(self.documents):
            self._build(real)

    # -- documents ---------------------------------------------------------

    def display(self, path: Path) -> str:
        return display_path(path, self.root) if self.root is not None else display_path(path)

    def place(self, real: str) -> str:
        if real in self.files:
            return WORKSPACE
        if self.root is not None and _is_under(real, self.root) and os.path.exists(real):
            return EXCLUDED
        return LOOSE

    def set_text(self, real: str, text: str) -> None:
        is_new = real not in self.documents
        self.documents[real] = text
        if is_new and self.place(real) == EXCLUDED:
            self.rediscover()  # created since the last walk, or really excluded: walk again to know
        else:
            self._build(real)

    def saved(self, real: str) -> None:
        """A saved document that discovery has not seen yet (a new file) joins the workspace."""
        if real in self.documents and self.place(real) != WORKSPACE and self.root is not None and _is_under(real, self.root):
            self.rediscover()

    def close(self, real: str) -> None:
        """The editor's text is gone: the file is what is on disk again."""
        self.documents.pop(real, None)
        self.loose.pop(real, None)
        self.parsed.pop(real, None)
        path = self.files.get(real)
        if path is None:
            return
        if os.path.exists(real):
            self.units[real] = load_unit(path, self.display(path))
        else:
            self.units.pop(real, None)

    def disk_changed(self, paths: Iterable[tuple[str, types.FileChangeType]], config_changed: bool, rediscover: bool) -> list:
        """Files changed outside the editor (watched-files events)."""
        messages: list = []
        for path, kind in paths:
            if kind != types.FileChangeType.Changed:
                rediscover = True  # created or deleted: walk again
                continue
            real = os.path.realpath(path)
            if real in self.documents:
                continue  # the editor's text wins while the document is open
            if real in self.files:
                self.units[real] = load_unit(self.files[real], self.display(self.files[real]))
        if config_changed:
            messages, ok = self.reload_config()
            rediscover = rediscover and not ok  # a good reload walked already
        if rediscover:
            self.rediscover()
        return messages

    def _build(self, real: str) -> None:
        text = self.documents[real]
        where = self.place(real)
        if where == WORKSPACE:
            path = self.files[real]
            self.units[real] = _analyse(path, self.display(path), text, self.units.get(real), partial(self._parse, real))
            self.loose.pop(real, None)
        elif where == LOOSE:
            path = Path(real)
            self.loose[real] = _analyse(path, self.display(path), text, self.loose.get(real), partial(self._parse, real))
        else:
            self.loose.pop(real, None)

    def _parse(self, real: str, text: str):
        """The document's module: the edited statement spliced into the last one that parsed
        when that is what a full parse would give (load/reparse.py), else a full parse (which
        raises the syntax error)."""
        import libcst as cst

        previous = self.parsed.get(real)
        parsed = None
        if previous is not None:
            try:
                parsed = previous.edited(text)
            except Exception as exc:  # noqa: BLE001 - the full parse below is always right
                logger.warning("re-parsing %s by statement failed (%s: %s); parsing it whole", real, type(exc).__name__, exc)
        if parsed is None:
            module = cst.parse_module(text)
            parsed = Parsed.of(text, module)
            if parsed is None:
                self.parsed.pop(real, None)
                return module
        self.parsed[real] = parsed
        return parsed.module

    # -- checking ----------------------------------------------------------

    def check(self, open_reals: Iterable[str]) -> dict[str, list[Finding]]:
        """Findings of each open document: workspace files against the whole workspace's index,
        loose documents on their own, excluded ones none."""
        out: dict[str, list[Finding]] = {real: [] for real in open_reals}
        report = {self.units[real].display: real for real in out if real in self.units and self.place(real) == WORKSPACE}
        if report:
            units = list(self.units.values())
            sources = {unit.display: unit.text for unit in units}
            for d in self._check(units, set(report)):
                real = report.get(d.path)
                if real is not None:
                    out[real].append(_finding(d, sources))
        for real in out:
            unit = self.loose.get(real)
            if unit is None or self.place(real) != LOOSE:
                continue
            sources = {unit.display: unit.text}
            out[real] = [_finding(d, sources) for d in self._check([unit], {unit.display}) if d.path == unit.display]
        return out

    def _check(self, units: list[FileUnit], report_for: set[str]) -> list[Diagnostic]:
        """check_units; when it fails, each document on its own, so one file that trips a rule
        does not take the other documents' diagnostics with it."""
        try:
            return check_units(units, self.config, CheckOptions(runtimes=self.runtimes, report_for=report_for)).diagnostics
        except Exception as exc:  # noqa: BLE001 - an internal error: log it, keep serving
            if len(report_for) == 1:
                self._internal_error(f"checking {next(iter(report_for))}", exc)
                return []
        found: list[Diagnostic] = []
        for display in sorted(report_for):
            found.extend(self._check(units, {display}))
        return found

    def _internal_error(self, what: str, exc: BaseException) -> None:
        logger.error("%s failed", what, exc_info=exc)
        self.errors.append(f"bgcheck: internal error: {what}: {type(exc).__name__}: {exc}")

    def run(self, ops: list[Callable[["WorkspaceState"], Any]], texts: list[tuple[str, str]], open_reals: list[str]):
        """One analysis job: apply pending state changes and new document texts, then check.
        Returns (findings by real path, messages to show, internal errors to log)."""
        self.errors = []
        messages: list = []
        for op in ops:
            messages.extend(op(self) or [])
        for real, text in texts:
            self.set_text(real, text)
        return self.check(open_reals), messages, self.errors


def _analyse(path: Path, display: str, text: str, previous: Optional[FileUnit], parse: Callable) -> FileUnit:
    unit = analyse_text(path, display, text, parse=parse)
    if unit.summary is None and previous is not None and previous.summary is not None:
        # While a document does not parse (mid-edit), the index keeps its last good summary so
        # the other files' diagnostics do not flap; the document itself reports BG000.
        unit.summary = previous.summary
    return unit


def _finding(d: Diagnostic, sources: dict) -> Finding:
    return Finding(d, lsp_diagnostic(d, sources), _fix_edit(d, sources))


def _fix_edit(d: Diagnostic, sources: dict) -> Optional[tuple[str, dict]]:
    """A rule's fix (``bgcheck.diagnostics.Fix``, safe or unsafe: the editor shows it and the user
    decides) as an LSP edit of the finding's file."""
    fix = d.fix
    if fix is None or not fix.edits:
        return None
    edits = [
        {"range": lsp_range(Location(d.path, e.line, e.column, e.end_line, e.end_column), sources), "newText": e.content}
        for e in fix.edits
    ]
    title = fix.title if fix.applicability is Applicability.SAFE else f"{fix.title} (unsafe fix: see {d.code}'s page)"
    return (title, {file_uri(d.path): edits})


def _is_under(real: str, root: Path) -> bool:
    try:
        Path(real).relative_to(root)
    except ValueError:
        return False
    return True


# ---------------------------------------------------------------------------
# the analysis thread


class _Worker:
    """One daemon thread with a big stack that runs jobs in order; results come back as asyncio futures.

    (Not ``asyncio.to_thread``: the default executor's threads have the default stack, on which
    deep libcst recursion can crash the process, and they would hold up the exit.)"""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        previous = threading.stack_size()
        threading.stack_size(STACK_BYTES)
        try:
            self._thread = threading.Thread(target=self._loop, name="bgcheck-analysis", daemon=True)
            self._thread.start()
        finally:
            threading.stack_size(previous)

    def run(self, fn: Callable[[], Any]) -> asyncio.Future:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._jobs.put((fn, loop, future))
        return future

    def stop(self) -> None:
        self._jobs.put(None)

    def _loop(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            fn, loop, future = job
            try:
                result = fn()
            except BaseException as exc:  # handed to the awaiting coroutine
                _deliver(loop, future.set_exception, future, exc)
            else:
                _deliver(loop, future.set_result, future, result)


def _deliver(loop: asyncio.AbstractEventLoop, setter, future: asyncio.Future, value) -> None:
    def deliver() -> None:
        if not future.done():
            setter(value)

    try:
        loop.call_soon_threadsafe(deliver)
    except RuntimeError:  # the loop is closed: the server is exiting
        pass


# ---------------------------------------------------------------------------
# the server


_UNHANDLED = object()  # a message that could not be read: answered (or logged) already


class _Protocol(LanguageServerProtocol):
    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        # bgcheck computes columns in UTF-16 (LSP's default); never negotiate another encoding.
        general = params.capabilities.general
        if general is not None and general.position_encodings:
            general.position_encodings = [types.PositionEncodingKind.Utf16]
        return (yield from super().lsp_initialize(params))

    def structure_message(self, data):
        """A message whose params do not have the protocol's types: a request gets an error
        response (InvalidParams), a notification is logged; pygls alone would leave the request
        unanswered and show "Error in server" in the editor."""
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            method = data.get("method") if isinstance(data, dict) else None
            if isinstance(data, dict) and "id" in data and isinstance(method, str):
                logger.warning("request %r (id %r) has malformed params: answered with an error", method, data.get("id"))
                error = JsonRpcInvalidParams() if isinstance(exc, JsonRpcInvalidParams) else exc
                self._send_response(data["id"], error=error.to_response_error())
            else:
                logger.warning("ignored a malformed message (method %r)", method)
            return _UNHANDLED

    def handle_message(self, message):
        if message is _UNHANDLED:
            return
        if not hasattr(message, "jsonrpc"):  # valid JSON, but not a JSON-RPC message (a list, a number, ...)
            logger.warning("ignored a message that is not JSON-RPC: %.200r", message)
            return
        super().handle_message(message)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        """pygls's, for a document the server knows: a change to a closed (or never opened)
        document, or one that does not apply, is logged and dropped instead of raising."""
        uri = params.text_document.uri
        if unquote(uri) not in self.workspace.text_documents:
            logger.warning("didChange for %s, which is not open: ignored", uri)
            return
        try:
            for change in params.content_changes:
                self.workspace.update_text_document(params.text_document, change)
        except Exception as exc:  # noqa: BLE001 - a change that does not apply to the text
            logger.warning("didChange for %s does not apply: %s", uri, exc)
            return
        user_handler = self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)
        if user_handler is not None:
            yield user_handler, (params,), None


_NEVER = object()  # "never analysed" version marker


class BgcheckLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("bgcheck", __version__, protocol_cls=_Protocol)
        self.debounce = DEFAULT_DEBOUNCE
        self.state: Optional[WorkspaceState] = None
        self.worker: Optional[_Worker] = None
        self.open_documents: dict[str, str] = {}  # uri -> real path
        self.published: dict[str, list[Finding]] = {}  # uri -> what the client shows
        self._analysed: dict[str, Any] = {}  # uri -> the document version last analysed
        self._ops: list[Callable[[WorkspaceState], Any]] = []
        self._timer: Optional[asyncio.Task] = None
        self._lock = asyncio.Lock()

    # -- scheduling --------------------------------------------------------

    def schedule(self, delay: float, op: Optional[Callable[[WorkspaceState], Any]] = None) -> None:
        """Run the analysis ``delay`` seconds from now; a later call restarts the wait (debounce)."""
        if op is not None:
            self._ops.append(op)
        if self.state is None:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.ensure_future(self._after(delay))

    async def _after(self, delay: float) -> None:
        await asyncio.sleep(delay)  # a newer change cancels this timer: the cancellation just propagates
        self._timer = None  # from here on, a new change schedules another run instead of cancelling this one
        await self.analyse()

    async def analyse(self) -> None:
        """One run: send pending changes and new texts to the analysis thread, publish what changed."""
        async with self._lock:
            if self.state is None or self.worker is None:
                return
            ops, self._ops = self._ops, []
            snapshot: dict[str, tuple[Any, Any]] = {}  # uri -> (document, version) as sent to the analysis
            texts: list[tuple[str, str]] = []
            for uri, real in self.open_documents.items():
                document = self.workspace.get_text_document(uri)
                snapshot[uri] = (document, document.version)
                if self._analysed.get(uri, _NEVER) != document.version:
                    texts.append((real, document.source))
            changed = {real for real, _ in texts}
            try:
                findings, messages, errors = await self.worker.run(
                    partial(self.state.run, ops, texts, list(self.open_documents.values()))
                )
            except Exception as exc:
                self._internal_error("analysis", exc)
                return
            for kind, message in messages:
                self.window_show_message(types.ShowMessageParams(type=kind, message=message))
            for message in errors:
                self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=message))
            for uri, (document, version) in snapshot.items():
                real = self.open_documents.get(uri)
                if real is None or self.workspace.get_text_document(uri) is not document:
                    continue  # closed (and maybe opened again) meanwhile
                self._analysed[uri] = version
                if document.version != version:
                    continue  # edited meanwhile: a run for the new text is scheduled
                new = findings.get(real, [])
                old = self.published.get(uri)
                if old is not None and real not in changed and [f.lsp for f in old] == [f.lsp for f in new]:
                    continue
                self.publish(uri, new, version)

    def publish(self, uri: str, findings: list[Finding], version=None) -> None:
        self.published[uri] = findings
        diagnostics = [_CONVERTER.structure(f.lsp, types.Diagnostic) for f in findings]
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    # -- errors ------------------------------------------------------------

    def report_server_error(self, error: Exception, source) -> None:
        """pygls shows these in the editor ("Error in server: ..."): malformed input from the
        client is not the user's business. Logged instead (the client's log for the server)."""
        self._internal_error(getattr(source, "__name__", "server"), error)

    def _internal_error(self, what: str, exc: BaseException) -> None:
        logger.error("%s: %s", what, exc, exc_info=exc)
        try:
            self.window_log_message(
                types.LogMessageParams(type=types.MessageType.Error, message=f"bgcheck: internal error: {what}: {type(exc).__name__}: {exc}")
            )
        except Exception:  # noqa: BLE001 - the connection may be gone
            pass


server = BgcheckLanguageServer()


def _guarded(fn):
    """Log, never crash, on an internal error in a handler (requests answer None)."""
    if asyncio.iscoroutinefunction(fn):

        async def guarded_async(ls: BgcheckLanguageServer, params):
            try:
                return await fn(ls, params)
            except Exception as exc:  # noqa: BLE001
                ls._internal_error(fn.__name__, exc)
                return None

        guarded_async.__name__ = fn.__name__
        return guarded_async

    def guarded(ls: BgcheckLanguageServer, params):
        try:
            return fn(ls, params)
        except Exception as exc:  # noqa: BLE001
            ls._internal_error(fn.__name__, exc)
            return None

    guarded.__name__ = fn.__name__
    return guarded


def _real_path(uri: str, language_id: Optional[str] = None) -> Optional[str]:
    """The real path of a Python document on disk (file: URI), else None."""
    path = to_fs_path(uri)
    if path is None:
        return None
    if not (path.endswith((".py", ".pyi")) or language_id == "python"):
        return None
    return os.path.realpath(path)


def _workspace_root(params: types.InitializeParams) -> Optional[Path]:
    uri = params.root_uri
    if uri is None and params.workspace_folders:
        uri = params.workspace_folders[0].uri
    path = to_fs_path(uri) if uri else params.root_path
    if not path or not os.path.isdir(path):
        return None
    return Path(os.path.realpath(path))


@server.feature(types.INITIALIZE)
@_guarded
def initialize(ls: BgcheckLanguageServer, params: types.InitializeParams) -> None:
    options = params.initialization_options if isinstance(params.initialization_options, dict) else {}
    debounce = options.get("debounce")
    if isinstance(debounce, (int, float)) and not isinstance(debounce, bool) and 0 <= debounce <= 60:
        ls.debounce = float(debounce)
    root = _workspace_root(params)
    if root is not None:
        os.chdir(root)  # display paths (and related locations' URIs) are relative to the workspace root
    ls.state = WorkspaceState(root)
    ls.worker = _Worker()
    ls.schedule(0, WorkspaceState.load)  # the first job of the analysis thread: index the workspace


@server.feature(types.INITIALIZED)
@_guarded
async def initialized(ls: BgcheckLanguageServer, params: types.InitializedParams) -> None:
    capabilities = ls.client_capabilities
    watched = capabilities.workspace.did_change_watched_files if capabilities.workspace else None
    if not (watched and watched.dynamic_registration):
        return
    watchers = [
        types.FileSystemWatcher(glob_pattern=pattern)
        for pattern in ("**/*.py", "**/pyproject.toml", "**/bgcheck.toml", "**/.gitignore")
    ]
    registration = types.Registration(
        id="bgcheck-watched-files",
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
    )
    try:
        await ls.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
    except Exception as exc:  # noqa: BLE001 - the client may refuse; saves still reload the configuration
        logger.info("the client did not register file watchers: %s", exc)


@server.feature(types.SHUTDOWN)
@_guarded
def shutdown(ls: BgcheckLanguageServer, params) -> None:
    if ls._timer is not None:
        ls._timer.cancel()
        ls._timer = None
    if ls.worker is not None:
        ls.worker.stop()
        ls.worker = None


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
@_guarded
def did_open(ls: BgcheckLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    document = params.text_document
    real = _real_path(document.uri, document.language_id)
    if real is None:
        return
    ls.open_documents[document.uri] = real
    ls._analysed.pop(document.uri, None)
    ls.schedule(0)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
@_guarded
def did_change(ls: BgcheckLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
    if params.text_document.uri in ls.open_documents:
        ls.schedule(ls.debounce)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
@_guarded
def did_save(ls: BgcheckLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    path = to_fs_path(uri)
    if path is not None and os.path.basename(path) in CONFIG_FILES:
        ls.schedule(0, _reload_config)
        return
    real = ls.open_documents.get(uri)
    if real is not None:
        ls.schedule(0, partial(_saved, real=real))


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
@_guarded
def did_close(ls: BgcheckLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    real = ls.open_documents.pop(uri, None)
    if real is None:
        return
    ls._analysed.pop(uri, None)
    if ls.published.get(uri):
        ls.publish(uri, [])  # a closed document shows no findings
    ls.published.pop(uri, None)
    ls.schedule(0, partial(_close, real=real))  # the other documents lose the unsaved text


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
@_guarded
def did_change_watched_files(ls: BgcheckLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
    config_changed = rediscover = False
    paths: list[tuple[str, types.FileChangeType]] = []
    for change in params.changes:
        path = to_fs_path(change.uri)
        if path is None:
            continue
        name = os.path.basename(path)
        if name in CONFIG_FILES:
            config_changed = True
        elif name == ".gitignore":
            rediscover = True
        elif name.endswith(".py"):
            paths.append((path, change.type))
    if config_changed or rediscover or paths:
        ls.schedule(ls.debounce, partial(_disk_changed, paths=paths, config_changed=config_changed, rediscover=rediscover))


def _reload_config(state: WorkspaceState) -> list:
    return state.reload_config()[0]


def _saved(state: WorkspaceState, real: str) -> None:
    state.saved(real)


def _close(state: WorkspaceState, real: str) -> None:
    state.close(real)


def _disk_changed(state: WorkspaceState, paths, config_changed: bool, rediscover: bool) -> list:
    return state.disk_changed(paths, config_changed, rediscover)


# -- code actions ------------------------------------------------------------


FIX_ALL = "source.fixAll.bgcheck"


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]),
)
@_guarded
def code_action(ls: BgcheckLanguageServer, params: types.CodeActionParams) -> Optional[list[types.CodeAction]]:
    uri = params.text_document.uri
    only = params.context.only
    quick_fixes = not only or any(types.CodeActionKind.QuickFix.value.startswith(kind) for kind in only)
    fix_all = bool(only) and any(FIX_ALL.startswith(kind) for kind in only)  # asked for by kind (on save, a command)
    if not (quick_fixes or fix_all) or uri not in ls.open_documents:
        return None
    text = ls.workspace.get_text_document(uri).source
    published = ls.published.get(uri, [])
    actions = _quick_fixes(params, uri, text, published) if quick_fixes else []
    if fix_all:
        action = _fix_all(uri, text, published)
        actions += [action] if action is not None else []
    return actions or None


def _fix_all(uri: str, text: str, published: list[Finding]) -> Optional[types.CodeAction]:
    """``source.fixAll.bgcheck``: every safe fix that applies in one pass, as one edit of the document."""
    fixed, applied = apply_pass(text, [finding.diagnostic for finding in published], unsafe=False)
    if not applied or fixed == text:
        return None
    lines = _LINE_BREAK.split(text)
    end = types.Position(line=len(lines) - 1, character=len(lines[-1].encode("utf-16-le")) // 2)
    edit = types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end), new_text=fixed)
    return types.CodeAction(title="bgcheck: apply every safe fix", kind=FIX_ALL, edit=types.WorkspaceEdit(changes={uri: [edit]}))


def _quick_fixes(params: types.CodeActionParams, uri: str, text: str, published: list[Finding]) -> list[types.CodeAction]:
    """For each bgcheck diagnostic in the request: the rule's fix, if it has one, and the ``# noqa`` action."""
    wanted = [d for d in params.context.diagnostics if d.source == "bgcheck" and isinstance(d.code, str)]
    if not wanted:  # some clients send no context: use what we published there
        wanted = [
            _CONVERTER.structure(f.lsp, types.Diagnostic)
            for f in published
            if _overlaps(f.lsp["range"], params.range)
        ]
    actions: list[types.CodeAction] = []
    seen: set[tuple[int, str]] = set()
    for diagnostic in wanted:
        finding = _matching(published, diagnostic)
        if finding is not None and finding.fix is not None:
            title, changes = finding.fix
            actions.append(
                types.CodeAction(
                    title=title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    is_preferred=finding.diagnostic.fix.applicability is Applicability.SAFE,
                    edit=_CONVERTER.structure({"changes": changes}, types.WorkspaceEdit),
                )
            )
        key = (diagnostic.range.start.line, str(diagnostic.code))
        if key in seen:
            continue
        seen.add(key)
        edit = noqa_edit(text, diagnostic.range.start.line, str(diagnostic.code))
        if edit is not None:
            actions.append(
                types.CodeAction(
                    title=f"Suppress {diagnostic.code} with `# noqa: {diagnostic.code}`",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    edit=types.WorkspaceEdit(changes={uri: [edit]}),
                )
            )
    return actions


def _matching(published: list[Finding], diagnostic: types.Diagnostic) -> Optional[Finding]:
    wanted = _CONVERTER.unstructure(diagnostic.range)
    for finding in published:
        if finding.lsp["code"] == diagnostic.code and finding.lsp["range"] == wanted and finding.lsp["message"] == diagnostic.message:
            return finding
    return None


def _overlaps(lsp_range_json: dict, range_: types.Range) -> bool:
    start = (lsp_range_json["start"]["line"], lsp_range_json["start"]["character"])
    end = (lsp_range_json["end"]["line"], lsp_range_json["end"]["character"])
    return start <= (range_.end.line, range_.end.character) and (range_.start.line, range_.start.character) <= end


def noqa_edit(text: str, line: int, code: str) -> Optional[types.TextEdit]:
    """The edit that suppresses ``code`` on ``line`` (0-based): add it to the line's ``# noqa:``
    list, or append ``  # noqa: CODE``. None when it is already suppressed there, or when no
    comment can end the line (it ends inside a multi-line string, or with a backslash)."""
    lines = _LINE_BREAK.split(text)
    found = noqa_insertion(text, line, [code])
    if found is None:
        return None
    start, end, new_text = found
    line_text = lines[line]
    return types.TextEdit(
        range=types.Range(
            start=types.Position(line=line, character=utf16_column(line_text, start + 1)),
            end=types.Position(line=line, character=utf16_column(line_text, end + 1)),
        ),
        new_text=new_text,
    )


# -- hover -------------------------------------------------------------------


_NOQA_CODES = re.compile(r"\bBG[0-9]{3}\b", re.IGNORECASE)


@server.feature(types.TEXT_DOCUMENT_HOVER)
@_guarded
def hover(ls: BgcheckLanguageServer, params: types.HoverParams) -> Optional[types.Hover]:
    uri = params.text_document.uri
    position = (params.position.line, params.position.character)
    entries: list[str] = []  # each finding under the cursor: its rule, message, explanation and page
    hover_range = None
    for finding in ls.published.get(uri, []):
        r = finding.lsp["range"]
        if (r["start"]["line"], r["start"]["character"]) <= position <= (r["end"]["line"], r["end"]["character"]):
            entry = hover_entry(finding.diagnostic.code, finding.diagnostic)
            if entry and entry not in entries:
                entries.append(entry)
            hover_range = hover_range or _CONVERTER.structure(r, types.Range)
    if not entries and uri in ls.open_documents:
        code, hover_range = _noqa_code_at(ls.workspace.get_text_document(uri).source, params.position)
        entry = hover_entry(code) if code else None
        entries = [entry] if entry else []
    if not entries:
        return None
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(entries)),
        range=hover_range,
    )


def hover_entry(code: str, diagnostic: Optional[Diagnostic] = None) -> Optional[str]:
    """A hover's part for one rule: its code, name and summary; the finding's message and
    explanation (over a finding); a link to the rule's page (the installed page, opened by the
    editor, and the page online) and the command that prints it. Not the page itself (up to 10
    KB): it is one click away, as is the diagnostic's codeDescription link. None for a code no
    rule has."""
    rules = {row[0]: (row[1], row[3]) for row in catalog.RULES}
    rules[BG000_CODE] = (BG000_NAME, BG000_SUMMARY)
    if code not in rules:
        return None
    name, summary = rules[code]
    parts = [f"**{code}** `{name}`: {summary}"]
    if diagnostic is not None:
        parts.append(diagnostic.message + (f"\n\n{diagnostic.explanation}" if diagnostic.explanation else ""))
    page = page_path(code)
    links = ([f"[{code} rule page]({page.as_uri()})"] if page else []) + [f"[online]({help_uri(code)})", f"`bgcheck explain {code}`"]
    parts.append(" · ".join(links))
    return "\n\n".join(parts)


def _noqa_code_at(text: str, position: types.Position) -> tuple[Optional[str], Optional[types.Range]]:
    """The bgcheck code under the cursor in a ``# noqa:`` comment, and its range."""
    lines = _LINE_BREAK.split(text)
    if not 0 <= position.line < len(lines):
        return None, None
    line_text = lines[position.line]
    directive = _NOQA_DIRECTIVE.search(line_text)
    if directive is None:
        return None, None
    for match in _NOQA_CODES.finditer(line_text, directive.end()):
        start = utf16_column(line_text, match.start() + 1)
        end = utf16_column(line_text, match.end() + 1)
        if start <= position.character <= end:
            found = types.Range(
                start=types.Position(line=position.line, character=start),
                end=types.Position(line=position.line, character=end),
            )
            return match.group(0).upper(), found
    return None, None


# ---------------------------------------------------------------------------


def serve() -> None:
    """Run the language server over stdio until the client says exit."""
    tune_gc()
    debug = os.environ.get("BGCHECK_DEBUG", "") not in ("", "0")
    logging.basicConfig(
        level=logging.DEBUG if debug else logging.WARNING,
        stream=sys.stderr,
        format="bgcheck lsp: %(levelname)s: %(name)s: %(message)s",
    )
    if not debug:
        logging.getLogger("pygls").setLevel(logging.ERROR)  # e.g. its warning for `exit` after `shutdown`
    raise_recursion_limit()
    server.start_io()
    # pygls swallows the SystemExit of `exit`; the LSP exit status is 0 after `shutdown`, else 1.
    # os._exit also skips the interpreter's slow teardown of every loaded module (~0.3 s), and
    # does not wait for an analysis still running on the worker thread.
    code = 0 if getattr(server.protocol, "_shutdown", False) else 1
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
