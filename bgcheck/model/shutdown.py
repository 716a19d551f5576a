"""The shutdown model: entry points, SIGTERM handlers, shutdown paths.

Built once per run from the project index:

* shutdown roots: functions registered with ``signal.signal(SIGTERM/SIGINT, f)``,
  ``loop.add_signal_handler``, ``atexit.register`` (call or decorator),
  FastAPI/Starlette ``on_event("shutdown")``, ``on_shutdown=[...]``,
  ``add_event_handler("shutdown", f)``, ``lifespan=`` functions (the code
  after ``yield``), and Celery ``worker_shutdown`` handlers;
* the functions they reach (the shutdown path);
* where a SIGTERM handler is installed;
* program entry points: ``if __name__ == "__main__":`` modules, console
  scripts from ``[project.scripts]``, module-level ``asyncio.run(...)``, and
  Django management commands' ``handle()``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional
from weakref import WeakKeyDictionary

from bgcheck import knowledge
from bgcheck.syntax.ir import IR, as_call, as_seconds, call_name, callee_name, ref_name, seq_items
from bgcheck.load.summary import STAR_IMPORT
from bgcheck.model.project import ProjectIndex, reads_facts


@dataclass(frozen=True)
class ShutdownRoot:
    function: str
    how: str  # "SIGTERM handler", "atexit hook", "shutdown event handler", "lifespan", ...
    registered_in: str
    after_yield_only: bool = False  # a lifespan: only the code after ``yield`` runs at shutdown


@dataclass(frozen=True)
class EntryPoint:
    kind: str  # "main block" | "console script" | "asyncio.run" | "management command"
    module: str
    path: str
    function: Optional[str] = None  # the entry function, when there is one
    script: str = ""  # the console script's name


@dataclass(frozen=True)
class TimedWait:
    function: str  # where the wait is
    text: str  # the call as written, its arguments as IR gives them: "t.join(timeout=25)", "t.join(TIMEOUT)"
    seconds: float
    path: str
    line: int  # of the call (its target's first call in the function); the ``def``'s when unknown
    column: int = 1


@dataclass(frozen=True)
class ShutdownModel:
    roots: dict[str, ShutdownRoot] = field(default_factory=dict)
    shutdown_code: dict[str, str] = field(default_factory=dict)  # qualname -> root
    # Shutdown code that only atexit hooks reach. They run after the interpreter has joined every
    # non-daemon thread and every concurrent.futures executor's workers (threading._shutdown comes
    # first), so the waits there that a SIGTERM handler would spend are already over.
    atexit_only: set[str] = field(default_factory=set)
    hows: dict[str, set[str]] = field(default_factory=dict)  # root function -> every way it is registered (``roots`` keeps the first)
    sigterm_scopes: set[str] = field(default_factory=set)  # scopes (function qualname or module) that install one
    sigterm_modules: set[str] = field(default_factory=set)
    # scope -> the other signals a handler is installed for there (``SIGINT``, ``SIGQUIT``): where a
    # program that handles no SIGTERM shows it meant to handle its stop (BG404's notes)
    other_signals: dict[str, set[str]] = field(default_factory=dict)
    entry_points: list[EntryPoint] = field(default_factory=list)


def build_shutdown_model(index: ProjectIndex, console_scripts: dict[str, str]) -> ShutdownModel:
    model = ShutdownModel()
    for summary in sorted(index.modules.values(), key=lambda s: s.path):
        for call, scope in summary.recorded_calls:
            _from_call(index, model, summary, call, scope)
        _from_web_apps(index, model, summary)
        _unrecorded_installers(index, model, summary)
    for qualname, (summary, func) in sorted(index.functions.items()):
        for decorator in func.decorators:
            _from_decorator(index, model, summary, qualname, decorator)
    # The model is frozen: build_shutdown_model fills its tables, nothing changes them afterwards.
    model.shutdown_code.update(index.reachable(sorted(r for r, root in model.roots.items() if not root.after_yield_only)))
    # A lifespan runs at shutdown only what it calls after its ``yield``.
    for name, root in sorted(model.roots.items()):
        if root.after_yield_only:
            for reached, _root in index.reachable(_after_yield_callees(index, name)).items():
                model.shutdown_code.setdefault(reached, name)
    for qualname, root in model.roots.items():
        model.shutdown_code.setdefault(qualname, qualname)
    model.atexit_only.update(_atexit_only(index, model))
    model.entry_points.extend(_entry_points(index, console_scripts))
    return model


def _add_root(model: ShutdownModel, root: ShutdownRoot) -> None:
    """The first registration of a function is its root, but for an atexit hook that is also
    registered otherwise (as a signal handler, say): its waits matter there, so that one names it."""
    known = model.roots.get(root.function)
    if known is None or (known.how == "atexit hook" and not root.after_yield_only and root.how != "atexit hook"):
        model.roots[root.function] = root
    model.hows.setdefault(root.function, set()).add(root.how)


def _atexit_only(index: ProjectIndex, model: ShutdownModel) -> set[str]:
    """The shutdown code no root but atexit hooks reaches (a lifespan reaches what it calls after ``yield``)."""
    atexit = sorted(name for name, hows in model.hows.items() if "atexit hook" in hows)
    if not atexit:
        return set()
    reached = set(index.reachable(atexit)) | set(atexit)
    others, starts = set(), []
    for name, root in sorted(model.roots.items()):
        if model.hows.get(name) == {"atexit hook"}:
            continue
        others.add(name)
        starts.extend(_after_yield_callees(index, name) if root.after_yield_only else [name])
    return reached - others - set(index.reachable(starts))


def _after_yield_callees(index: ProjectIndex, name: str) -> list[str]:
    """The project functions a lifespan calls after its ``yield``: what it runs at shutdown."""
    func = index.function(name)
    if func is None:
        return []
    return [c for c in (index.resolve_function(t) for t in func.calls_after_yield) if c and c != name]


def _ref(index: ProjectIndex, value: Optional[IR]) -> Optional[str]:
    if ref_name(value) is None:
        return None
    return index.resolve_function(ref_name(value))


def _signal_names(index: ProjectIndex, value: Optional[IR]) -> Optional[set]:
    """The canonical signal names an argument denotes; None when it cannot be told."""
    if ref_name(value) is not None:
        return {index.canonical(ref_name(value))}
    return None


def _from_call(index: ProjectIndex, model: ShutdownModel, summary, call: IR, scope: str) -> None:
    parts = as_call(call)
    target = index.canonical(parts.target) or ""
    args = parts.args
    kwargs = parts.named
    if is_signal_installer(target):
        signals = _signal_names(index, args[0] if args else kwargs.get("signalnum") or kwargs.get("sig"))
        handler = args[1] if len(args) > 1 else kwargs.get("handler") or kwargs.get("callback")
        # An unknown signal (a loop variable over several) may well be SIGTERM: count it, stay silent.
        if signals is None or signals & knowledge.SIGTERM:
            model.sigterm_scopes.add(scope)
            model.sigterm_modules.add(summary.module)
        else:
            model.other_signals.setdefault(scope, set()).update(name.rsplit(".", 1)[-1] for name in signals)
        function = _ref(index, handler)
        if function and (signals is None or signals & knowledge.SHUTDOWN_SIGNALS):
            _add_root(model, ShutdownRoot(function, "signal handler", summary.path))
        return
    if target in knowledge.ATEXIT_REGISTER and args:
        function = _ref(index, args[0])
        if function:
            _add_root(model, ShutdownRoot(function, "atexit hook", summary.path))
        return
    last = target.rsplit(".", 1)[-1]
    if last == "add_event_handler" and len(args) > 1 and index.fold(args[0]) == "shutdown":
        function = _ref(index, args[1])
        if function:
            _add_root(model, ShutdownRoot(function, "shutdown event handler", summary.path))
        return
    if last == "connect" and target.rsplit(".", 1)[0] in knowledge.CELERY_SHUTDOWN_SIGNALS and args:
        function = _ref(index, args[0])
        if function:
            _add_root(model, ShutdownRoot(function, "Celery worker_shutdown handler", summary.path))


def is_signal_installer(target: str) -> bool:
    """Is the (canonical) call target ``signal.signal`` or a loop's ``add_signal_handler``?"""
    return target in knowledge.SIGNAL_INSTALLERS or bool(knowledge.LOOP_SIGNAL_INSTALLER.fullmatch(target))


def _unrecorded_installers(index: ProjectIndex, model: ShutdownModel, summary) -> None:
    """A handler installed through a renamed import (``from signal import signal as install``) is not among
    the recorded calls, so its signal is unknown: like any unknown signal, it may well be SIGTERM."""
    recorded = {scope for call, scope in summary.recorded_calls if is_signal_installer(index.canonical(call_name(call)) or "")}
    scopes = [(summary.module, summary.module_calls)] + [(name, func.calls) for name, func in summary.functions.items()]
    for scope, calls in scopes:
        if scope in recorded:
            continue
        if any(is_signal_installer(index.canonical(call) or "") for call in calls):
            model.sigterm_scopes.add(scope)
            model.sigterm_modules.add(summary.module)


def _from_decorator(index: ProjectIndex, model: ShutdownModel, summary, qualname: str, decorator: IR) -> None:
    target = index.canonical(callee_name(decorator))
    if not target:
        return
    if target in knowledge.ATEXIT_REGISTER:
        _add_root(model, ShutdownRoot(qualname, "atexit hook", summary.path))
        return
    base, _, last = target.rpartition(".")
    call = as_call(decorator)
    if last == "on_event" and call is not None and call.args and index.fold(call.first_arg) == "shutdown":
        if knowledge.WEB_APPS.fullmatch(base):
            _add_root(model, ShutdownRoot(qualname, "shutdown event handler", summary.path))
        return
    if last == "connect" and base in knowledge.CELERY_SHUTDOWN_SIGNALS:
        _add_root(model, ShutdownRoot(qualname, "Celery worker_shutdown handler", summary.path))


def _from_web_apps(index: ProjectIndex, model: ShutdownModel, summary) -> None:
    """``FastAPI(lifespan=..., on_shutdown=[...])`` bound to a module-level name."""
    for value in summary.constants.values():
        call = as_call(value)
        if call is None or not knowledge.WEB_APPS.fullmatch(index.canonical(call.target) or ""):
            continue
        for key, argument in call.kwargs:
            if key == "lifespan":
                function = _ref(index, argument)
                if function:
                    _add_root(model, ShutdownRoot(function, "lifespan", summary.path, after_yield_only=True))
            elif key == "on_shutdown" and seq_items(argument) is not None:
                for item in seq_items(argument):
                    function = _ref(index, item)
                    if function:
                        _add_root(model, ShutdownRoot(function, "shutdown event handler", summary.path))


def _imported_names(index: ProjectIndex) -> dict[str, set[str]]:
    """Qualified name -> the project modules that import it (``from pkg.cli import main``,
    ``import pkg.util.comm``)."""
    found: dict[str, set[str]] = {}
    for summary in index.modules.values():
        for key, target in summary.imports.items():
            if not key.startswith(STAR_IMPORT):
                found.setdefault(target, set()).add(summary.module)
    return found


def _main_block_is_a_harness(index: ProjectIndex, summary, imported: dict[str, set[str]]) -> bool:
    """A ``__main__`` block run by hand, not how the program starts: its module is a library module
    of the project (another project module imports it or a name from it), and nothing its top level
    calls is imported by another module (``python -m pkg.util.comm`` runs a developer's tool; a
    ``cli.py`` whose ``main`` a ``__main__.py`` imports is the program's start). Like tests, such
    harnesses are not the deployed service, so they are no entry point (BG404)."""
    module = summary.module
    if module.rsplit(".", 1)[-1] == "__main__":
        return False
    prefix = module + "."
    if not any(importers - {module} for name, importers in imported.items() if name == module or name.startswith(prefix)):
        return False
    for target in summary.module_calls:
        function = index.resolve_function(target)
        if function and imported.get(function, set()) - {module}:
            return False
    return True


def _entry_points(index: ProjectIndex, console_scripts: dict[str, str]) -> list[EntryPoint]:
    entries: list[EntryPoint] = []
    imported = _imported_names(index)
    for summary in sorted(index.modules.values(), key=lambda s: s.path):
        if summary.has_main_block and not _main_block_is_a_harness(index, summary, imported):
            entries.append(EntryPoint("main block", summary.module, summary.path))
        for call, scope in summary.recorded_calls:
            if scope == summary.module and index.canonical(call_name(call)) in knowledge.ASYNCIO_RUN and not summary.has_main_block:
                coroutine = as_call(as_call(call).first_arg)  # asyncio.run(main())
                function = index.resolve_function(coroutine.target) if coroutine is not None else None
                entries.append(EntryPoint("asyncio.run", summary.module, summary.path, function))
    for name, target in sorted(console_scripts.items()):
        function = target.replace(":", ".")
        if function in index.functions:
            summary = index.functions[function][0]
            entries.append(EntryPoint("console script", summary.module, summary.path, function, script=name))
    for qualname, (summary, cls) in sorted(index.classes.items()):
        if "handle" in cls.methods and index.class_bases(qualname) & knowledge.DJANGO_COMMAND_BASES:
            entries.append(EntryPoint("management command", summary.module, summary.path, f"{qualname}.handle"))
    return entries


# ---------------------------------------------------------------------------
# questions the rules ask


def entry_roots(index: ProjectIndex, entry: EntryPoint) -> list[str]:
    """The functions an entry point runs directly."""
    if entry.function:
        return [entry.function]
    summary = index.modules[entry.module]
    found = []
    for target in summary.module_calls:
        function = index.resolve_function(target)
        if function:
            found.append(function)
    return found


# index -> entry point -> its scopes and modules: asked by the project facts (twice) and by BG404,
# each a search of everything the entry reaches, so computed once per index.
_ENTRY_SCOPES: "WeakKeyDictionary[ProjectIndex, dict]" = WeakKeyDictionary()


@reads_facts("shutdown")
def entry_scopes(index: ProjectIndex, entry: EntryPoint) -> tuple[frozenset[str], frozenset[str]]:
    """(scopes the entry runs: reachable functions plus, for a module, its top level; modules involved)."""
    known = _ENTRY_SCOPES.setdefault(index, {})
    if entry not in known:
        reached = set(index.reachable(entry_roots(index, entry)))
        scopes = set(reached)
        if not entry.function:
            scopes.add(entry.module)
        modules = {entry.module} | {index.functions[f][0].module for f in reached if f in index.functions}
        known[entry] = (frozenset(scopes), frozenset(modules))
    return known[entry]


@reads_facts("shutdown")
def background_starts(index: ProjectIndex, scopes: set[str]) -> list[str]:
    """What starts background work in these scopes, described for a message."""
    found: list[str] = []
    for summary in index.modules.values():
        for call, scope in summary.recorded_calls:
            if scope not in scopes:
                continue
            target = index.canonical(call_name(call)) or ""
            if knowledge.ENTRY_STARTS.fullmatch(target) or _starts_thread_subclass(index, target):
                found.append(f"`{_short(target)}()`")
    for scope in sorted(scopes):
        func = index.function(scope)
        if func is not None and func.endless_loop:
            found.append(f"an endless loop in `{func.name}()`")
    return sorted(set(found))


def _starts_thread_subclass(index: ProjectIndex, target: str) -> bool:
    if not target.endswith("().start"):
        return False
    cls = target[: -len("().start")]
    return cls in index.classes and bool(index.class_bases(cls) & knowledge.THREAD_BASES)


@reads_facts("shutdown")
def hands_over_to_framework(index: ProjectIndex, scopes: set[str]) -> bool:
    """Does code in these scopes hand the process over to a runner that handles SIGTERM itself?"""
    recorded, holders = _handover_tables(index)
    if recorded & scopes:
        return True
    for scope in scopes:
        for summary in holders.get(scope, ()):
            func = summary.functions.get(scope)
            calls = func.calls if func else (summary.module_calls if scope == summary.module else ())
            if any(_hands_over(index, call) for call in calls):
                return True
    return False


# index -> (scopes with a recorded call to a SIGTERM-handling runner, scope -> the summaries that
# define it as a function or a module): built once per index, asked once per entry point.
_HANDOVER: "WeakKeyDictionary[ProjectIndex, tuple]" = WeakKeyDictionary()


def _handover_tables(index: ProjectIndex) -> tuple[set, dict]:
    tables = _HANDOVER.get(index)
    if tables is None:
        recorded: set[str] = set()
        holders: dict[str, list] = {}
        for summary in index.modules.values():
            recorded.update(scope for call, scope in summary.recorded_calls if scope not in recorded and _hands_over(index, call_name(call)))
            for scope in (*summary.functions, summary.module):
                holders.setdefault(scope, []).append(summary)
        tables = _HANDOVER[index] = (recorded, holders)
    return tables


def _hands_over(index: ProjectIndex, target: str) -> bool:
    return bool(knowledge.SIGTERM_HANDLING_RUNNERS.fullmatch(index.canonical(target) or ""))


def installs_sigterm_handler(model: ShutdownModel, scopes: set[str], modules: set[str]) -> bool:
    return bool(model.sigterm_scopes & scopes) or bool(model.sigterm_modules & modules)


def _short(target: str) -> str:
    parts = target.replace("()", "").split(".")
    return ".".join(parts[-2:])


@reads_facts("shutdown")
def timed_waits(index: ProjectIndex, scopes) -> list[TimedWait]:
    """Explicit wait bounds (``join(timeout=25)``, ``sleep(5)``) in these functions, folded to seconds."""
    waits: list[TimedWait] = []
    wanted = set(scopes)
    for summary in sorted(index.modules.values(), key=lambda s: s.path):
        for call, scope in summary.recorded_calls:
            if scope not in wanted:
                continue
            func = index.function(scope)
            wait = timed_wait(index, call, scope, summary.path, func.line if func else 0)
            if wait is not None:
                waits.append(wait)
    return waits


def _written(ir: IR, seconds: float) -> str:
    """An argument of a wait as written, as far as its IR tells: a literal, a name; else its value."""
    if ir and ir[0] == "v" and isinstance(ir[1], (int, float)) and not isinstance(ir[1], bool):
        return f"{ir[1]!r}"
    name = ref_name(ir)
    if name:
        return name.rsplit(".", 1)[-1]
    return f"{seconds:g}"


def timed_wait(index: ProjectIndex, call: IR, scope: str, path: str, line: int) -> Optional[TimedWait]:
    """The explicit wait bound of one call (its IR), or None when it is not a timed wait. It is
    placed at the call (its target's first call in ``scope``), else at ``line`` (the ``def``'s)."""
    parts = as_call(call)
    if not parts.target:
        return None
    name = parts.target.rsplit(".", 1)[-1]
    spec = knowledge.TIMED_WAITS.get(name)
    if spec is None:
        return None
    keyword, position = spec
    value = None
    written = ""
    for key, arg in parts.kwargs:
        if key == keyword or (name == "sleep" and key == "delay"):
            value, written = arg, f"{key}="
    if value is None and position is not None:
        value = parts.arg(position)
    seconds = as_seconds(index.fold(value)) if value is not None else None
    if not seconds or seconds <= 0:
        return None
    receiver = parts.target.rsplit(".", 2)[-2] if parts.target.count(".") else ""
    receiver = receiver.replace("()", "")
    text = f"{receiver + '.' if receiver and name != 'sleep' else ''}{name}({written}{_written(value, seconds)})"
    if name == "sleep":
        text = f"sleep({written}{_written(value, seconds)})"
    site = index.target_site(scope, lambda target: target == parts.target)
    if site is not None:
        return TimedWait(scope, text, seconds, path, site[1], site[2] or 1)
    return TimedWait(scope, text, seconds, path, line)
