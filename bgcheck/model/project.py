"""The project index: every file's summary, joined up.

Rules ask it what a name resolves to across modules (``canonical``), what a
constant folds to (``fold``), which project functions a function calls
(``callees``), and whether a function is job code. It is built once per run
from plain summaries, so it can be built from a cache or from worker
processes alike.
"""

from __future__ import annotations

from functools import cached_property
import functools
from collections import deque
from typing import Callable, Container, Iterable, Iterator, Mapping, Optional

from bgcheck.syntax import ir as irmod
from bgcheck import knowledge
from bgcheck.syntax.ir import IR, as_call, call_name, is_literal, ref_name
from bgcheck.syntax.param_guards import UNKNOWN_VALUE, contradicts
from bgcheck.load.summary import STAR_IMPORT, ClassSummary, FunctionSummary, ModuleSummary


_MAX_EXPANSIONS = 25
_UNKNOWABLE = object()  # ProjectIndex._setting_in: a name a module from outside the project may bind
_NOTHING_KNOWN: frozenset = frozenset()  # a context in which no parameter is known to hold a constant: (parameter, value) pairs


class ProjectIndex:
    """The summaries joined up: names, constants, the call graph.

    The project-wide models built over it (jobs, locks, money chains...) are the typed fields of
    ``bgcheck.model.build.Project``, the index a run uses: ``build_index`` makes it in one step,
    each model set once (``set_model``) in the order they depend on each other, and seals it
    (assigning an attribute afterwards raises). What it computes on demand (canonical names,
    reachability) is memoised in private caches."""

    MODELS: tuple[str, ...] = ()  # the fields set_model may set, once each (Project's models)

    def __init__(self, summaries: Iterable[ModuleSummary], catalog: Optional["Catalog"] = None) -> None:
        if catalog is not None:  # the summaries are read when first asked for (model/persist.py)
            self.modules, self.functions, self.classes = catalog.modules, catalog.functions, catalog.classes
        else:
            self.modules = {}
            for summary in sorted(summaries, key=lambda s: s.path):
                # Two files can claim one module name (scripts outside packages): first wins.
                self.modules.setdefault(summary.module, summary)
            self.functions = {}
            self.classes = {}
            for summary in self.modules.values():
                for qualname, func in summary.functions.items():
                    self.functions[qualname] = (summary, func)
                for qualname, cls in summary.classes.items():
                    self.classes[qualname] = (summary, cls)
        self._canonical_cache: dict[str, str] = {}
        self._resolved: dict[Optional[str], Optional[str]] = {}  # call target -> project function (resolve_function)
        self._callees: dict[tuple, tuple] = {}  # (qualname, class of self) -> what it calls, so (_callees_as)
        self._reach_by_kind: dict[frozenset, dict[str, str]] = {}
        self._memo: dict[str, object] = {}  # what is computed once on first use (call targets, thread holders)
        self.job_roots = {}  # no jobs until the job model is set: nothing is job code yet
        self._sealed = False

    def __setattr__(self, name: str, value) -> None:
        if getattr(self, "_sealed", False):
            raise AttributeError(f"the project index is built once: {name} cannot be set afterwards")
        object.__setattr__(self, name, value)

    def set_model(self, name: str, value) -> None:
        """Set one model while the index is built (build_index); never twice."""
        if name not in self.MODELS or (name in self.__dict__ and name != "job_roots"):
            raise AttributeError(f"{name} is not a model of the index, or is set already")
        setattr(self, name, value)
        if name == "job_roots":  # what was reachable from no job is recomputed from the jobs
            self.__dict__.pop("job_code", None)
            self._reach_by_kind.clear()

    def seal(self) -> "ProjectIndex":
        missing = [name for name in self.MODELS if name not in self.__dict__]
        if missing:
            raise AttributeError(f"the project index is missing {', '.join(missing)}")
        self._sealed = True
        return self

    # --- names --------------------------------------------------------------
    def _split_module(self, path: str) -> tuple[Optional[ModuleSummary], list[str]]:
        module, rest = self._split_module_name(path)
        return (self.modules[module] if module is not None else None), rest

    def _split_module_name(self, path: str) -> tuple[Optional[str], list[str]]:
        """The longest project module a dotted path starts with, and the parts after it (its
        summary is not read: a restored index reads summaries only when asked for them)."""
        parts = path.split(".")
        for cut in range(len(parts), 0, -1):
            module = ".".join(parts[:cut])
            if module in self.modules:
                return module, parts[cut:]
        return None, parts

    def _defines(self, members, qualname: str, module: str) -> bool:
        """Whether ``module`` defines ``qualname``, one of ``members`` (the index's functions or
        classes), asked of the index's tables rather than of the module's summary."""
        if isinstance(members, _LazyMembers):
            return members.owner(qualname) == module
        found = members.get(qualname)
        return found is not None and found[0].module == module

    def canonical(self, path: Optional[str]) -> Optional[str]:
        """Follow project re-exports and bindings to the name a path really denotes.

        ``proj.celery.app.task`` -> ``celery.Celery().task`` (``app`` is bound
        to ``Celery(...)``); ``pkg.api.charge`` -> ``pkg.billing.charge`` (a
        re-export); ``pkg.svc.Client().pay`` -> ``pkg.svc.Client.pay``.
        """
        if path is None:
            return None
        cached = self._canonical_cache.get(path)
        if cached is not None:
            return cached
        result = self._from_other_root(path) or path
        seen = {path, result}
        for _ in range(_MAX_EXPANSIONS):
            expanded = self._expand_once(result)
            if expanded is None or expanded == result:
                break
            rewritten = self._from_other_root(expanded)  # an import written from another root
            result = rewritten if rewritten is not None and rewritten not in seen else expanded
            seen.add(result)
        result = _known_instance(self._python3_name(result))
        self._canonical_cache[path] = result
        return result

    def _python3_name(self, path: str) -> str:
        """``Queue.Queue()`` -> ``queue.Queue()``, ``six.moves.queue`` -> ``queue``
        (knowledge.PYTHON2_MODULES), unless the first part is one of the project's own modules."""
        head = path.split(".", 1)[0]
        if head not in _PYTHON2_HEADS or head in self._top_packages:
            return path
        for old, new in _PYTHON2_MODULES_LONGEST_FIRST:
            if path == old or path.startswith(old + "."):
                return new + path[len(old) :]
        return path

    def _from_other_root(self, path: str) -> Optional[str]:
        """A path written from another ``sys.path`` folder than the one the module names assume,
        rewritten to the project module's own name; None when it is not one.

        - An inner folder: label-studio runs with ``label_studio/`` on the path, so ``core.redis.x``
          is the project's ``label_studio.core.redis.x``. Taken when the head names a project
          package below the top and exactly one such package (or its submodule) defines what follows.
        - An outer folder: galaxy's ``galaxy/`` holds no ``__init__.py`` (a namespace package), so
          its packages are named ``celery``, ``managers``..., and ``galaxy.celery.x`` is ``celery.x``
          when ``celery`` is a top project package in a folder named ``galaxy``.
        Only for a path that starts with no project module."""
        parts = path.split(".")
        if parts[0] in self.modules:
            return None
        outer = self._outer_folders().get(parts[0])
        if outer:
            for top, folders in outer:
                if parts[len(folders):len(folders) + 1] == [top] and parts[:len(folders)] == list(folders):
                    return ".".join(parts[len(folders):])
        inner = self._inner_packages().get(parts[0])
        if not inner:
            return None
        fits = [package for package in inner if len(parts) == 1 or self._has_member(package, parts[1].removesuffix("()"), parts[0])]
        return ".".join([fits[0], *parts[1:]]) if len(fits) == 1 else None

    def _has_member(self, package: str, name: str, head: str) -> bool:
        """Whether a project package has a submodule, function, class, import or constant ``name``;
        an import of the same name from the library the package shadows (nautobot's
        ``nautobot.core.celery`` imports ``celery.Celery``) is the library's, not the package's."""
        qualified = f"{package}.{name}"
        if qualified in self.modules or self._defines(self.functions, qualified, package) or self._defines(self.classes, qualified, package):
            return True
        module = self.modules.get(package)
        if module is None:
            return False
        imported = module.imports.get(name)
        return name in module.constants or (imported is not None and imported.partition(".")[0] != head)

    def _inner_packages(self) -> dict[str, tuple[str, ...]]:
        """A package's last name -> the project packages below the top that have it (``core`` ->
        ``label_studio.core``): the names an import from an inner ``sys.path`` folder starts with."""
        cached = self._memo.get("inner_packages")
        if cached is None:
            found: dict[str, list[str]] = {}
            for name in self.modules:
                head = name.rpartition(".")[0]
                while "." in head:  # every package a module is in, below the top
                    found.setdefault(head.rpartition(".")[2], []).append(head)
                    head = head.rpartition(".")[0]
            cached = self._memo["inner_packages"] = {k: tuple(dict.fromkeys(v)) for k, v in found.items()}
        return cached

    def _outer_folders(self) -> dict[str, tuple[tuple[str, tuple[str, ...]], ...]]:
        """The folders without ``__init__.py`` right above each top project package, as they lie
        under the run's folder (``galaxy/celery/__init__.py``: ``galaxy`` -> (("celery", ("galaxy",)),)):
        keyed by the outermost folder's name. Outer folders of ``.``-less or absolute paths are not
        known (the run's own folder is never one)."""
        cached = self._memo.get("outer_folders")
        if cached is None:
            found: dict[str, list] = {}
            tops = {name.partition(".")[0] for name in self.modules if "." in name}
            for top in sorted(top for top in tops if top in self.modules):
                folders = self.modules[top].path.replace("\\", "/").split("/")[:-2]  # above the package's folder
                if folders and not folders[0].startswith(("/", ".")) and all(f.isidentifier() for f in folders):
                    for cut in range(len(folders)):  # ``lib/galaxy/celery``: ``galaxy.celery`` and ``lib.galaxy.celery``
                        found.setdefault(folders[cut], []).append((top, tuple(folders[cut:])))
            cached = self._memo["outer_folders"] = {k: tuple(v) for k, v in found.items()}
        return cached

    def _expand_once(self, path: str) -> Optional[str]:
        module, rest = self._split_module_name(path)
        if module is None or not rest:
            return None
        head, tail = rest[0], rest[1:]
        is_instance = head.endswith("()")
        name = head[:-2] if is_instance else head
        qualified = f"{module}.{name}"
        if self._defines(self.classes, qualified, module):
            if is_instance and tail:
                return self._instance_attribute(qualified, tail)
            if tail and tail[0].endswith("()") and len(tail[0]) > 2:
                # ``Cls.create()``: what a classmethod or staticmethod factory returns
                result = self._returned(f"{qualified}.{tail[0][:-2]}")
                return _join(result, tail[1:]) if result else None
            return None
        if self._defines(self.functions, qualified, module):
            if is_instance:
                result = self._returned(qualified)  # ``make_pool()`` -> what make_pool returns
                return _join(result, tail) if result else None
            return None
        summary = self.modules[module]
        if name in summary.imports and summary.imports[name] != qualified:
            return _join(summary.imports[name] + ("()" if is_instance else ""), tail)
        binding = summary.constants.get(name)
        if binding is None:
            star = self._star_imported(summary, name)
            return _join(star + ("()" if is_instance else ""), tail) if star else None
        base = self._imported_by_path(binding) or self._celery_app_by_use(summary, name, binding) or irmod.ir_path(binding)
        if base is None or base == qualified:
            return None
        return _join(base + ("()" if is_instance else ""), tail)

    def _celery_app_by_use(self, summary: ModuleSummary, name: str, binding: IR) -> Optional[str]:
        """``app = celery_class(main="mayan")`` of a class bgcheck cannot name, then
        ``app.autodiscover_tasks()`` or ``app.config_from_object(...)`` at the module's top level, in a
        project that imports celery: the project builds its Celery app there (knowledge.CELERY_APP_SETUP_METHODS).
        Also ``app = get_celery_app()`` of a library function that returns one (knowledge.CELERY_APP_FACTORIES)."""
        call = as_call(binding)
        if call is None or not call.target:
            return None
        if (self.canonical(call.target) or call.target) in knowledge.CELERY_APP_FACTORIES:
            return "celery.Celery()"
        # the cheap tests first: this runs for every binding a name is resolved through
        qualified = f"{summary.module}.{name}."
        if not any(target.startswith(qualified) and target[len(qualified):] in knowledge.CELERY_APP_SETUP_METHODS for target in summary.module_calls):
            return None
        if not self._imports_celery():
            return None
        made = self.canonical(call.target) or call.target
        if made in self.classes or made in self.functions or any(made.startswith(cls) for cls in knowledge.CELERY_APP_CLASSES):
            return None  # a class or factory of the project, or Celery itself: resolved as such
        return "celery.Celery()"

    def _imports_celery(self) -> bool:
        cached = self._memo.get("imports_celery")
        if cached is None:
            cached = self._memo["imports_celery"] = any(
                target == "celery" or target.startswith("celery.") for summary in self.modules.values() for target in summary.imports.values()
            )
        return cached

    def _star_imported(self, summary: ModuleSummary, name: str) -> Optional[str]:
        """``from .jobs import *`` in ``summary``: the qualified name ``name`` has in the first
        project module star-imported there that defines or imports it (a private name is never
        star-imported)."""
        if name.startswith("_"):
            return None
        for module in self._star_import_modules(summary):
            if module == summary.module or module not in self.modules:
                continue
            other = self.modules[module]
            qualified = f"{module}.{name}"
            if (name in other.imports or name in other.constants or self._defines(self.classes, qualified, module)
                    or self._defines(self.functions, qualified, module)):
                return qualified
        return None

    def _imported_by_path(self, binding: IR) -> Optional[str]:
        """``import_string("proj.celery.app")`` with a constant path: the object that path names."""
        call = as_call(binding)
        if call is None or not call.target:
            return None
        if call.target not in knowledge.IMPORT_BY_PATH and self.canonical(call.target) not in knowledge.IMPORT_BY_PATH:
            return None
        argument = call.first_arg or next((call.keyword(key) for key in knowledge.IMPORT_PATH_KEYWORDS if call.keyword(key) is not None), None)
        if argument is None:
            return None
        path = self.fold(argument)
        if not isinstance(path, str) or not path or " " in path:
            return None
        return path.replace(":", ".")

    def _instance_attribute(self, class_qualname: str, tail: list[str]) -> Optional[str]:
        """``Cls().attr...``: a method, or an attribute bound in ``__init__`` and friends."""
        attr, rest = tail[0], tail[1:]
        called = attr.endswith("()") and len(attr) > 2
        name = attr[:-2] if called else attr
        for cls_name in self.mro(class_qualname):
            _summary, cls = self.classes[cls_name]
            if name in cls.methods:
                if called:  # ``self.get_pool()``: what the method returns
                    result = self._returned(f"{cls_name}.{name}")
                    return _join(result, rest) if result else None
                return _join(f"{cls_name}.{attr}", rest)
            if called:
                continue
            binding = cls.self_attrs.get(attr) or cls.attrs.get(attr)
            if binding is not None:
                base = irmod.ir_path(binding)
                return _join(base, rest) if base else None
        # Not the project's own: a method inherited from a library class the table knows
        # (``class Pool(ThreadPoolExecutor)``: ``Pool().submit`` is ThreadPoolExecutor's).
        api = self.api_base(class_qualname)
        if api is not None:
            return _join(f"{api}().{attr}", rest)
        return None

    def _returned(self, qualname: str) -> Optional[str]:
        """The path of what calling a project function returns (``concurrent.futures.ThreadPoolExecutor()``), or None."""
        func = self.function(qualname)
        if func is None:
            return None
        return irmod.ir_path(getattr(func, "returns", None))

    def api_base(self, class_qualname: str) -> Optional[str]:
        """The library class from knowledge.RECEIVER_APIS a project class derives from, if any."""
        for base in sorted(self.class_bases(class_qualname)):
            if base in knowledge.RECEIVER_APIS:
                return base
        return None

    # --- receivers ------------------------------------------------------------
    def receiver_type(self, path: Optional[str]) -> Optional[str]:
        """The library class (a key of knowledge.RECEIVER_APIS) an instance path denotes, or None when
        it is not known to be one: ``pkg.mod.POOL`` bound to ``ThreadPoolExecutor()`` ->
        "concurrent.futures.ThreadPoolExecutor"; a project class derived from one -> that class."""
        canonical = self.canonical(path)
        if not canonical or not canonical.endswith("()"):
            return None
        name = canonical[:-2]
        if name in knowledge.RECEIVER_APIS:
            return name
        if name in self.classes:
            return self.api_base(name)
        return None

    def unknown_receivers(self, paths: Optional[Iterable[str]] = None) -> list[str]:
        """One note per function and written call whose method rules match on a receiver
        (knowledge.RECEIVER_NOTE_METHODS) but whose receiver's type is not known: nothing was checked
        there. ``paths``: only functions of these files (display paths); None: every file."""
        notes = []
        wanted = None if paths is None else set(paths)
        for qualname, (summary, func) in sorted(self.functions.items()):
            if wanted is not None and summary.path not in wanted:
                continue
            for target in func.calls:
                method = target.rsplit(".", 1)[-1]
                rules = knowledge.RECEIVER_NOTE_METHODS.get(method)
                if rules is None or "." not in target or self.resolve_function(target):
                    continue
                receiver = (self.canonical(target.lstrip("?")) if not target.startswith("?") else target).rsplit(".", 1)[0]
                if not target.startswith("?") and (self.receiver_type(receiver) or knowledge.APSCHEDULER_CLASS.match(receiver)):
                    continue
                written = target.lstrip("?").lstrip(".") or method
                where = f"{summary.path}:{func.line}" if func.line else summary.path
                notes.append(
                    f"{where}: `{written}()` in {func.name}(): the receiver's type is not known "
                    f"(not an executor, event loop or task group bgcheck can see), {rules} not checked there"
                )
        return notes

    def binding(self, path: Optional[str]) -> Optional[IR]:
        """The IR a module-level name or an instance attribute (``pkg.mod.Cls().attr``) is bound to."""
        if not path:
            return None
        head, _, attr = path.rpartition(".")
        if head.endswith("()") and head[:-2] in self.classes:
            for cls_name in self.mro(head[:-2]):
                cls = self.classes[cls_name][1]
                found = cls.self_attrs.get(attr) or cls.attrs.get(attr)
                if found is not None:
                    return found
            return None
        return self.lookup_constant(path)

    def _thread_holders(self) -> dict:
        """Where threads are kept: the path of each module global, class attribute or ``self.x`` bound
        to ``threading.Thread(...)`` or a project Thread subclass -> that call's IR. Computed once."""
        cached = self._memo.get("thread_holders")
        if cached is None:
            cached = {}
            bindings = []
            for summary in self.modules.values():
                bindings.extend((f"{summary.module}.{name}", ir) for name, ir in summary.constants.items())
            for qualname, (_summary, cls) in self.classes.items():
                bindings.extend((f"{qualname}().{name}", ir) for name, ir in cls.self_attrs.items())
                bindings.extend((f"{qualname}.{name}", ir) for name, ir in cls.attrs.items())
            for path, ir in bindings:
                if call_name(ir) and self.receiver_type(call_name(ir) + "()") == "threading.Thread":
                    cached[path] = ir
            self._memo["thread_holders"] = cached
        return cached

    def runs_only_as(self, qualname: Optional[str], kind: str) -> bool:
        """Is this function job code, and is every job whose code it is of this kind ("thread",
        "process": a child process of multiprocessing, "worker loop", ...)?"""
        jobs = self.job_roots.get(self.job_code.get(qualname or "") or "", ())
        return bool(jobs) and all(job.kind == kind for job in jobs)

    def is_unjoined_daemon_thread_code(self, qualname: Optional[str]) -> bool:
        """Does this function run only as (part of) daemon threads that nothing joins? Such a thread never
        holds up a stop: the interpreter exits without waiting for it (and BG403 is about what it writes)."""
        if not self.runs_only_as(qualname, "thread"):
            return False
        root = self.job_code[qualname]
        jobs = self.job_roots[root]
        for job in jobs:
            if not self._daemon(job.options) and not (job.target in self.classes and self._daemon_class(job.target)):
                return False
        targets = self.all_call_targets()
        for holder, ir in self._thread_holders().items():
            runs = self._thread_runs(ir)
            if runs is not None and runs in (root, root.rsplit(".run", 1)[0]) and f"{holder}.join" in targets:
                return False  # joined (on a shutdown path or elsewhere): its waits hold whoever joins it
        return True

    def thread_join_facts(self) -> list:
        """(holder, the function or class it runs, joined anywhere, made a daemon after it is made): what
        ``is_unjoined_daemon_thread_code`` and ``thread_is_daemon`` read from other modules (for the cache's
        project facts)."""
        targets = self.all_call_targets()
        return [
            (holder, self._thread_runs(ir) or "", f"{holder}.join" in targets, repr(self._daemon_set_later(holder)))
            for holder, ir in sorted(self._thread_holders().items())
        ]

    def _thread_runs(self, ir) -> Optional[str]:
        """The function a ``Thread(target=f)`` runs, or the Thread subclass a call makes."""
        call = as_call(ir)
        if self.canonical(call.target) in self.classes:
            return self.canonical(call.target)
        target = call.keyword("target")
        return self.resolve_function(irmod.ir_path(target)) if target is not None else None

    def thread_is_daemon(self, ir: Optional[IR]) -> Optional[bool]:
        """Whether the thread a receiver denotes (``WORKER``, ``self._thread``, as IR) is a
        daemon: True for ``Thread(daemon=True)``, a daemon Thread subclass or ``holder.daemon = True``;
        False for a thread made without ``daemon=`` that nothing makes one later; None when that is
        not known (``setDaemon(...)``, a value that does not fold, a constructor not seen)."""
        call = self.constructed(ir)
        parts = as_call(call) if call is not None else None
        if parts is None or any(arg == ("*",) for arg in parts.args) or any(key == "**" for key, _value in parts.kwargs):
            return None
        made = self.canonical(parts.target)
        if made in self.classes:
            if not (self.class_bases(made) & knowledge.THREAD_BASES):
                return None
            if self._daemon_class(made):
                return True
        elif self.receiver_type(f"{made}()") != "threading.Thread":
            return None
        daemon = parts.keyword("daemon")
        later = self._daemon_set_later(ref_name(ir)) if ref_name(ir) else []
        if daemon is None and not later:
            return False
        values = {self.fold(value) for value in ([daemon] if daemon is not None else []) + later}
        return values.pop() if len(values) == 1 and values <= {True, False} else None

    def _daemon_set_later(self, holder: str) -> list:
        """What ``holder.daemon = ...`` assigns anywhere in the project (UNKNOWN_IR for ``holder.setDaemon(...)``)."""
        assigned = self._memo.get("daemon_assignments")
        if assigned is None:  # every ``x.daemon = ...`` of the project, by x: read once, asked per thread holder
            assigned = {}
            for summary in self.modules.values():
                for target, value, *_rest in summary.attr_assignments:
                    if target.endswith(".daemon"):
                        assigned.setdefault(target[: -len(".daemon")], []).append(value)
            self._memo["daemon_assignments"] = assigned
        found = list(assigned.get(holder, ()))
        if f"{holder}.setDaemon" in self.all_call_targets():
            found.append(irmod.UNKNOWN_IR)
        return found

    def _daemon(self, options: dict) -> bool:
        return self.fold(options.get("daemon")) is True

    def _daemon_class(self, class_qualname: str) -> bool:
        for name in self.mro(class_qualname):
            cls = self.classes[name][1]
            if self.fold(cls.attrs.get("daemon")) is True or self.fold(cls.self_attrs.get("daemon")) is True:
                return True
        return False

    def constructed(self, ir: Optional[IR]) -> Optional[IR]:
        """The constructor call (IR) a receiver was made by: a local's own binding, or what the global or
        instance attribute it refers to is bound to. None when it is not known."""
        for _ in range(4):
            if ir is None:
                return None
            if as_call(ir) is not None:
                return ir
            if ref_name(ir) is None:
                return None
            ir = self.binding(ref_name(ir))
        return None

    def queue_is_unbounded(self, ir: Optional[IR]) -> Optional[bool]:
        """True when this receiver is a queue made with no bound (no maxsize, maxsize <= 0, SimpleQueue),
        False when it is made with one, None when that is not known."""
        call = self.constructed(ir)
        if call is None:
            return None
        parts = as_call(call)
        name = self.canonical(parts.target)
        if name not in knowledge.QUEUE_CONSTRUCTORS:
            return None
        position = knowledge.QUEUE_CONSTRUCTORS[name]
        if position is None:
            return True
        if any(arg == ("*",) for arg in parts.args) or any(key == "**" for key, _value in parts.kwargs):
            return None
        value = parts.keyword("maxsize") or parts.arg(position)
        if value is None:
            return True
        folded = self.fold(value)
        if isinstance(folded, bool) or not isinstance(folded, (int, float)):
            return None
        return folded <= 0

    def is_sentinel(self, item: Optional[IR]) -> bool:
        """Is a queued item a wake-up or stop sentinel rather than work: ``None``, or a module-level
        constant made by ``object()`` or bound to a literal (``STOP = object()``, ``_WAKE = "wake"``)?"""
        if item == ("v", None):
            return True
        if ref_name(item) is None:
            return False
        bound = self.lookup_constant(ref_name(item))
        if bound is None:
            return False
        if is_literal(bound):
            return True
        return as_call(bound) is not None and self.canonical(as_call(bound).target) in ("object", "builtins.object")

    def queue_puts(self, holder: str) -> list:
        """Every put into the queue kept at ``holder`` (``pkg.mod.Q``, ``pkg.mod.Cls().q``) anywhere in the
        project: (IR of the item, the put's nearest loop as the summary records it, function qualname, module summary)."""
        found = []
        head, _, attr = holder.rpartition(".")
        classes = {head}
        if head.endswith("()"):
            # ``self.q`` in a subclass's methods is resolved against the subclass
            owner = head[:-2]
            classes |= {f"{name}()" for name, (_s, _c) in self.classes.items() if owner in self.mro(name)}
        if head in self.classes:  # a class attribute, put into through ``self.q`` too
            classes |= {f"{name}()" for name in self.classes if head in self.mro(name)}
        receivers = {f"{cls}.{attr}" for cls in classes}
        for summary in self.modules.values():
            for path, item, loop, scope in getattr(summary, "queue_puts", ()):
                if path in receivers:
                    found.append((item, loop, scope, summary))
        return found

    def is_stream_loop(self, loop, holder: str = "") -> bool:
        """Does a recorded loop (``queue_puts``) run over input with no size known in advance: a ``while``
        loop, an ``async for``, a ``for`` over a Kafka consumer, ``itertools.count()``, a file, ``sys.stdin``
        (knowledge.STREAM_CONSUMERS), or over what a call returns (rows of a query, pages of an API)? A
        ``for`` over a list, a range, ``enumerate(...)``, ``d.items()``, a parameter (typed as a collection
        or not), an attribute, or the queue at ``holder`` itself is not."""
        if loop in ("while", "async for"):
            return True
        if not (isinstance(loop, tuple) and loop[0] == "for"):
            return False
        iterated = loop[1]
        path = self.canonical(irmod.ir_path(iterated))
        if path and knowledge.STREAM_CONSUMERS.fullmatch(path):
            return True
        if not call_name(iterated):
            return False
        target = self.canonical(call_name(iterated).lstrip("?")) or ""
        if target in knowledge.SIZED_ITERATION_CALLS or target in knowledge.SIZED_COLLECTION_TYPES:
            return False
        if target.rsplit(".", 1)[-1] in knowledge.SIZED_ITERATION_METHODS:
            return False
        if _is_lookup_with_a_collection_default(iterated):
            return False
        if holder and _mentions(iterated, holder):
            return False  # ``for item in iter_queue(self.q)``: taking items off the same queue
        return True

    def mro(self, class_qualname: str) -> list[str]:
        """The project classes in a class's ancestry, nearest first (depth-first, deduplicated)."""
        order: list[str] = []
        stack = [class_qualname]
        while stack and len(order) < 50:
            name = self.canonical(stack.pop(0))
            if name in order or name not in self.classes:
                continue
            order.append(name)
            stack.extend(b for b in self.classes[name][1].bases if b)
        return order

    def class_bases(self, class_qualname: str) -> set[str]:
        """Every base (project or library, canonical) in a class's ancestry."""
        bases: set[str] = set()
        for name in self.mro(class_qualname):
            for base in self.classes[name][1].bases:
                if base:
                    bases.add(self.canonical(base))
        return bases

    def reads_a_clock(self, path: Optional[str], depth: int = 0) -> bool:
        """Does calling what this path names read a clock of the standard library (knowledge.CLOCK_CALLS)?
        Also the project's own clocks: a function whose every ``return`` is a clock reading (``def now():
        return time.monotonic()``), an alias (``now = time.monotonic``, folded by ``canonical``), and a
        module name bound to a clock on one branch and to something else on another (``if WINDOWS:
        time = _precise_clock else: time = time.time``): one name, called the same way whichever
        branch ran, is one kind of thing."""
        name = self.canonical(path)
        if not name or depth > 4:
            return False
        if name in knowledge.CLOCK_CALLS:
            return True
        function = self.resolve_function(name)
        if function is not None:
            returned = irmod.as_call(self.function(function).returns)
            return returned is not None and self.reads_a_clock(returned.target, depth + 1)
        summary, rest = self._split_module(name)
        if summary is None or len(rest) != 1:
            return False
        return any(self.reads_a_clock(irmod.ir_path(ir), depth + 1) for ir in summary.alternatives.get(rest[0], ()))

    # --- constants ----------------------------------------------------------
    def lookup_constant(self, path: str) -> Optional[IR]:
        """The IR bound to a module-level name (following re-exports), or None."""
        summary, rest = self._split_module(path)
        if summary is None or len(rest) != 1:
            return None
        name = rest[0]
        if name in summary.imports:
            target = summary.imports[name]
            return ("ref", target) if target != path else None
        return summary.constants.get(name)

    def fold(self, value: Optional[IR]):
        return irmod.fold(value, self.lookup_constant)

    # --- calls --------------------------------------------------------------
    def function(self, qualname: str) -> Optional[FunctionSummary]:
        entry = self.functions.get(qualname)
        return entry[1] if entry else None

    def keeps_its_errors(self, summary: FunctionSummary) -> bool:
        """Does no exception leave this function? Its body is one ``try`` that keeps every error,
        alone or beside calls that raise nothing (``log.debug(...)``: knowledge.NON_RAISING_CALLS)."""
        if summary.keeps_its_errors:
            return True
        beside = summary.calls_beside_kept_try
        return bool(beside) and all(knowledge.NON_RAISING_CALLS.fullmatch(self.canonical(t.lstrip("?")) or "") for t in beside)

    def overridden(self, summary: FunctionSummary) -> bool:
        """Is this method defined again in a project class derived from its class? ``self.run()``
        may then run the override."""
        owner = summary.class_qualname
        return owner is not None and f"{owner}.{summary.name}" in self._overridden_methods

    @cached_property
    def _overridden_methods(self) -> frozenset:
        """``Class.method`` for every method a project class derived from ``Class`` defines again."""
        return frozenset(self._overrides)

    @cached_property
    def never_suspending(self) -> frozenset:
        """The async functions that never let the event loop run other work: no suspension point
        of their own but awaits of (and ``async for`` over) project async functions that never
        suspend either (FunctionSummary.suspends_only_at), a method a project subclass overrides
        excepted. The least fixpoint, so a cycle suspends and the set does not depend on the order
        anything asks. Such a coroutine run as a task ends in its first step (BG602), and a
        cancellation cannot arrive while it is awaited (BG101, BG105)."""
        waits_on: dict[str, list] = {}
        for name, (_summary, func) in self.functions.items():
            if func.is_async and func.suspends_only_at is not None and not self.overridden(func):
                callees = [self.resolve_function(target) for target in func.suspends_only_at]
                if None not in callees:
                    waits_on[name] = callees
        found: set[str] = set()
        grown = True
        while grown:
            grown = False
            for name, callees in waits_on.items():
                if name not in found and all(callee in found for callee in callees):
                    found.add(name)
                    grown = True
        return frozenset(found)

    def coroutine_candidates(self, target: Optional[str]) -> tuple:
        """The project async functions a call may run: the one it resolves to and every override of
        it in a project subclass (``self.work()`` in a base class), or, for a call on a receiver
        bgcheck cannot type (``self.store.save()``), the one async function of that name in the
        project when there is exactly one (with its overrides, when the others of that name are
        those). () when it may run anything else."""
        if not target or target == "?":
            return ()
        qualname = self.resolve_function(target) or self.only_function_named(target)
        if qualname is None:
            return ()
        func = self.function(qualname)
        if not func.is_async:
            return ()
        overrides = self._overrides_of(func)
        found = overrides if overrides and func.abstract else [qualname] + overrides  # a placeholder never runs
        return tuple(found) if all(self.function(q).is_async for q in found) else ()

    def only_function_named(self, target: Optional[str]) -> Optional[str]:
        """For a call or reference on a receiver bgcheck cannot type (``self.store.save``,
        ``plugin.update_wrapper`` of a plugin taken from a dict), the one project function of that
        name: the only one, or the base class's method when every other of that name overrides it
        (``data_layer.update_step()``: a data-layer base and its backends). None for anything else
        (a name classes apart define, a library's object, a method asyncio's objects have)."""
        if not target or target == "?" or not self._untyped_receiver(target):
            return None  # a library's method (``asyncio.Queue().put``), or a module's function not there
        method = target.lstrip("?").rsplit(".", 1)[-1]
        if method in knowledge.ASYNCIO_OBJECT_METHODS:
            return None  # most likely asyncio's own (``queue.put(item)`` on a queue handed in)
        return self._family_root(method)

    def _family_root(self, method: str) -> Optional[str]:
        """The one project function named ``method``, or the method every other of that name
        overrides; None when there is no such one (memoised)."""
        memo = self._memo.setdefault("family_root", {})
        if method not in memo:
            named = self._functions_named.get(method, ())
            others = len(named) - 1
            roots = [q for q in named if len(self._overrides.get(q, ())) >= others and set(named) - {q} <= set(self._overrides[q])] if others else list(named)
            memo[method] = roots[0] if len(roots) == 1 else None
        return memo[method]

    def _untyped_receiver(self, target: str) -> bool:
        """May the call run a project function bgcheck could not resolve? Its receiver is a name
        bgcheck cannot resolve (``?store.save``), or a path in the project's own packages that
        names no module bgcheck knows (``app.Worker().store.save``: what ``self.store`` holds; a
        module of a folder without ``__init__.py``, indexed under a shorter name). Not a library's
        object (``asyncio.Queue().put``) nor a module bgcheck knows, whose functions it has."""
        if target.startswith("?"):
            return True
        receiver = (self.canonical(target) or target).rsplit(".", 1)[0]
        return receiver.split(".", 1)[0] in self._top_packages and receiver not in self.modules

    @cached_property
    def _top_packages(self) -> frozenset:
        """The first part of every project module's name: the project's own top-level names."""
        return frozenset(name.split(".", 1)[0] for name in self.modules)

    def _overrides_of(self, func) -> list:
        """The methods of project subclasses of ``func``'s class that define it again."""
        if func.class_qualname is None:
            return []
        return list(self._defined_below(func.class_qualname, func.name))

    def _defined_below(self, cls: str, method: str) -> tuple:
        """The ``method`` of every project class derived from ``cls`` that defines one, whether or
        not ``cls`` does (_overrides_of; _defined_only_below for a method only subclasses define)."""
        return tuple(name for name in self._overrides.get(f"{cls}.{method}", ()) if name in self.functions)

    @cached_property
    def _overrides(self) -> dict:
        """``Class.method`` -> the ``Sub.method`` of every project class derived from ``Class`` that
        defines it again: one pass over the classes, for _overridden_methods and _overrides_of."""
        found: dict[str, list] = {}
        for name, (_summary, cls) in self.classes.items():
            for ancestor in self.mro(name)[1:]:
                for method in cls.methods:
                    found.setdefault(f"{ancestor}.{method}", []).append(f"{name}.{method}")
        return found

    @cached_property
    def _functions_named(self) -> dict:
        """Plain name -> the qualnames of the project functions (def and async def) of that name."""
        found: dict[str, list] = {}
        for qualname, (_summary, func) in self.functions.items():
            found.setdefault(func.name, []).append(qualname)
        return {name: tuple(names) for name, names in found.items()}

    def _library_await(self, target: str) -> bool:
        """Is an awaited call of ``target`` one to a library, whose failure is an error of I/O or
        of another service? Not a project function, nor a pause (asyncio.sleep), a queue's put or
        a wait on asyncio's own events and locks, which fail at no service. A library's function or a library object's method
        (``httpx.AsyncClient().post``, ``asyncio.wait_for``) is; a call on a receiver bgcheck cannot
        type is when no project function has its name."""
        if target == "?":
            return False
        if not target.startswith("?"):
            target = self.canonical(target) or target  # ``app.ready.wait`` -> ``asyncio.Event().wait``
        name = target.lstrip("?").rsplit(".", 1)[-1].rstrip("()")
        if not name or name in knowledge.AWAITS_THAT_FAIL_AT_NO_SERVICE or self.resolve_function(target) is not None:
            return False
        if not target.startswith("?") and target.split(".", 1)[0] not in self._top_packages:
            return not knowledge.ASYNCIO_PRIMITIVES.fullmatch(target)
        return name not in self._functions_named

    @cached_property
    def losing_io(self) -> dict:
        """The async functions from which an error of a library call can reach the task that runs
        them, each with how many library calls it awaits, directly or through the project
        coroutines it awaits (the fewest over what an await may run; counted up to
        knowledge.LOSING_IO_ENOUGH). An error escapes through an await that no catch-all ``try``
        around it keeps (FunctionSummary.awaited_io) of a library call, or of project coroutines
        (every one it may run: coroutine_candidates) that let one escape. The least fixpoint, so a
        cycle lets nothing escape and the answer does not depend on the order anything asks. A task
        of such a coroutine that nobody keeps fails unseen (BG602's sure case)."""
        enough = knowledge.LOSING_IO_ENOUGH
        awaits: dict[str, list] = {}
        for name, (_summary, func) in self.functions.items():
            if func.is_async and func.awaited_io is not None:
                awaits[name] = [
                    (kept, True, ()) if self._library_await(target) else (kept, False, self.coroutine_candidates(target))
                    for target, kept in func.awaited_io
                ]
        escaped: set[str] = set()
        counts = dict.fromkeys(awaits, 0)
        grown = True
        while grown:
            grown = False
            for name, items in awaits.items():
                escapes, count = name in escaped, 0
                for kept, library, candidates in items:
                    if library:
                        escapes, count = escapes or not kept, count + 1
                    elif candidates and all(c in awaits for c in candidates):
                        count += min(counts[c] for c in candidates)
                        escapes = escapes or (not kept and all(c in escaped for c in candidates))
                if escapes and name not in escaped:
                    escaped.add(name)
                    grown = True
                if min(count, enough) > counts[name]:
                    counts[name] = min(count, enough)
                    grown = True
        return {name: counts[name] for name in escaped}

    def task_losing_io(self, target: Optional[str]) -> int:
        """For a task of a call of ``target``: how many library calls its coroutine awaits (up to
        knowledge.LOSING_IO_ENOUGH) when an error of one reaches the task whatever project
        coroutine the call runs (losing_io); 0 when none may or bgcheck cannot tell what runs."""
        candidates = self.coroutine_candidates(target)
        losing = self.losing_io
        if not candidates or not all(c in losing for c in candidates):
            return 0
        return min(losing[c] for c in candidates)

    @cached_property
    def coroutine_names(self) -> tuple:
        """What coroutine_candidates reads beyond a call's resolution, for the facts' digest: the
        overrides of every overridden async method (and whether it is a placeholder), and the
        names that one project function, or one base method and its overrides, has (_family_root,
        which only_function_named reads)."""
        overrides = sorted(
            (name, tuple(self._overrides_of(func)), func.abstract) for name, (_summary, func) in self.functions.items()
            if func.is_async and self.overridden(func)
        )
        unique = sorted(
            (name, root) for name in self._functions_named
            if (root := self._family_root(name)) is not None and self.function(root).is_async
        )
        return tuple(overrides), tuple(unique)

    @cached_property
    def prompting_functions(self) -> frozenset:
        """The project functions that wait for the user at a terminal prompt: those that call one
        (knowledge.INTERACTIVE_INPUT_CALLS, in a lambda too: ``input()`` run in an executor) and
        those at most two calls above one (``ainput()`` -> ``self.read_line()`` -> ``prompt_async()``):
        a REPL's own input helpers, not the whole program that runs the REPL (BG101, BG105). A method
        of a project base class counts when an override of it does (``ui.prompt()`` on an abstract
        ``UI`` whose terminal subclass calls ``prompt_async()``): called through the base, it may run
        the override."""
        found = {
            name for name, (_summary, func) in self.functions.items()
            if any(self.canonical(target) in knowledge.INTERACTIVE_INPUT_CALLS for target in func.calls if not target.startswith("?"))
        }
        found |= self._overridden_by(found)
        for _level in range(2 if found else 0):
            found |= {name for name in self.functions if any(callee in found for callee in self.callees(name))}
            found |= self._overridden_by(found)
        return frozenset(found)

    def _overridden_by(self, methods: set) -> set:
        """The methods of project base classes that the given methods override."""
        bases = set()
        for name in methods:
            func = self.function(name)
            if func is not None and func.class_qualname:
                bases.update(f"{ancestor}.{func.name}" for ancestor in self.mro(func.class_qualname)[1:])
        return {base for base in bases if base in self.functions}

    def resolve_function(self, path: Optional[str]) -> Optional[str]:
        """The qualname of the project function a call target denotes, or None. Memoised: the
        summaries, and so what a name resolves to, never change once the index is made."""
        try:
            return self._resolved[path]
        except KeyError:
            pass
        name = self.canonical(path)
        found = None
        if name in self.functions:
            found = name
        elif name in self.classes:  # calling a class runs its __init__
            init = f"{name}.__init__"
            found = init if init in self.functions else None
        self._resolved[path] = found
        return found

    def callees(self, qualname: str) -> list[str]:
        """The project functions ``qualname`` calls, in the order of their first call (memoised:
        the models and the rules ask again and again while searching the call graph)."""
        # one entry per function: two spellings of a call, or two contexts, reach the same callee
        return list(dict.fromkeys(callee for callee, _self_class, _known in self._callees_as((qualname, None, _NOTHING_KNOWN))))

    def _callees_as(self, node: tuple) -> tuple:
        """The calls of a function run in a given context: ``node`` is (qualname, the class of
        ``self``, None for the method's own; the constants its parameters are known to hold), and so
        is each callee.

        ``super().m()`` runs the next ``m`` in that class's ancestry after the method's own class;
        ``self.m()`` in a base class's method runs the override of the class the work was started on
        (a job class's ``load_source_adapter()``, called by its base's ``run()``): a call through
        ``self`` or ``super()`` keeps the class, any other call starts afresh. (A summary names
        ``Base().m()`` written in Base's own methods as it names ``self.m()``: that rare call is taken
        for one through ``self``.)

        Constants through arguments: a call guarded by a parameter (``if start_scheduler:``) is not
        made when the parameter is known to hold a value the guard rejects; a callee's parameters are
        known from the constants its caller hands on, the caller's own known parameters handed on as
        they came, and constant defaults of those left out (``get_app()`` -> ``start_scheduler=False``).
        Only the parameters the callee tests or hands on are kept, so most contexts stay empty. Memoised."""
        cached = self._callees.get(node)
        if cached is None:
            qualname, self_class, known = node
            func = self.function(qualname)
            owner = func.class_qualname if func is not None else None
            values = dict(known)
            guards = dict(func.call_guards) if func is not None else {}
            handed = dict(func.call_arguments) if func is not None else {}
            found: dict[tuple, None] = {}
            for position, target in enumerate(func.calls if func is not None else ()):
                if any(contradicts(guard, self._guard_value(guard[0], values)) for guard in guards.get(position, ())):
                    continue  # a call the known constants rule out here
                callee, through_self = self._dispatched(target, owner, self_class)
                if callee is None and through_self and not target.startswith("super()."):
                    below = self._defined_only_below(target, self_class or owner)
                    for sub in below:  # one of them runs: the work was started on that subclass
                        called = self.function(sub)
                        found.setdefault((sub, None, self._known_in(called, handed.get(position), values)), None)
                if callee and callee != qualname:
                    kept = (self_class or owner) if through_self else None
                    called = self.function(callee)
                    context = self._known_in(called, handed.get(position), values)
                    found.setdefault((callee, None if kept == called.class_qualname else kept, context), None)
            # Nested functions run as part of their parent more often than not.
            cached = self._callees[node] = tuple(found)
        return cached

    def _guard_value(self, key: str, values: dict) -> tuple:
        """What a guard's subject is known to hold (param_guards' values): a parameter's from the
        context, a module constant's or setting's ("@" and its path) from the project, once."""
        if not key.startswith("@"):
            return values.get(key, UNKNOWN_VALUE)
        memo = self._memo.setdefault("guard_values", {})
        found = memo.get(key)
        if found is None:
            path = key[1:]
            bound = self.setting(path) if path.rpartition(".")[0] in knowledge.SETTINGS_OBJECTS else self.lookup_constant(path)
            value = self.fold(bound) if bound is not None else None
            literal = bound is not None and (value is None or isinstance(value, (bool, int, float, str)))
            found = memo[key] = ("c", bool(value), value is None) if literal else UNKNOWN_VALUE
        return found

    def _known_in(self, callee, given: Optional[tuple], caller_values: dict) -> frozenset:
        """(parameter, constant value) for each of ``callee``'s guard-relevant parameters whose
        value is known when called with ``given`` (FunctionSummary.call_arguments of the call; None:
        unknown, ``*args``/``**kwargs``)."""
        relevant = self._guard_params(callee)
        if not relevant or given is None:
            return _NOTHING_KNOWN
        by_key = dict(given)
        defaults = {param: ("c", truthy, is_none) for param, truthy, is_none in callee.param_defaults}
        known = set()
        for param in sorted(relevant):
            value = callee.passed_to(by_key, param)
            if value is None:
                value = defaults.get(param)
            elif value[0] == "p":
                value = caller_values.get(value[1])
            if value is not None and value[0] == "c":
                known.add((param, value))
        return frozenset(known)

    def _guard_params(self, func) -> frozenset:
        """The parameters a function's guards test or its calls hand on as they came (memoised)."""
        key = ("guard_params", func.qualname)
        cached = self._memo.get(key)
        if cached is None:
            found = {guard[0] for _position, guards in func.call_guards for guard in guards if not guard[0].startswith("@")}
            found |= set(func.guard_params)
            found |= {value[1] for _position, given in func.call_arguments for _key, value in given if value[0] == "p"}
            cached = self._memo[key] = frozenset(found & set(func.params))
        return cached

    def _defined_only_below(self, target: str, cls: str) -> tuple:
        """``self.update()`` in a base class that defines no ``update`` (nor do its ancestors): the
        work runs on an instance of a project subclass, so the call runs one of their ``update``
        methods (a plugin base's ``update_wrapper()`` calling each plugin's ``update()``)."""
        return self._defined_below(cls, target.rsplit(".", 1)[-1])

    def _dispatched(self, target: str, owner: Optional[str], self_class: Optional[str]) -> tuple[Optional[str], bool]:
        """(the project function a call target runs in a method of ``owner`` on an instance of
        ``self_class``, whether the call goes through ``self`` or ``super()``)."""
        if owner is None:
            return self.resolve_function(target), False
        if target.startswith("super()."):
            name = target[len("super()."):]
            if "." in name or "(" in name:
                return None, False
            order = self.mro(self_class or owner)
            after = order[order.index(owner) + 1:] if owner in order else self.mro(owner)[1:]
            return next((f"{cls}.{name}" for cls in after if f"{cls}.{name}" in self.functions), None), True
        prefix = f"{owner}()."
        if target.startswith(prefix) and "." not in target[len(prefix):] and "(" not in target[len(prefix):]:
            if self_class is not None and self_class != owner:
                return self.resolve_function(f"{self_class}().{target[len(prefix):]}"), True
            return self.resolve_function(target), True
        return self.resolve_function(target), False

    # --- where calls are written (for chains shown as notes) -----------------
    def target_site(self, scope: str, wanted) -> Optional[tuple[str, int, int]]:
        """(path, line, column) of the first call in ``scope`` (a function, or a module's top level)
        whose target, as resolved in its module, passes ``wanted``; None when there is none or its
        position is unknown."""
        func = self.function(scope)
        if func is not None:
            path, calls, sites = self.functions[scope][0].path, func.calls, func.call_sites
        elif scope in self.modules:
            summary = self.modules[scope]
            path, calls, sites = summary.path, summary.module_calls, summary.module_call_sites
        else:
            return None
        for target, site in zip(calls, sites):
            if wanted(target):
                return (path, site[0], site[1]) if site[0] else None
        return None

    def call_site(self, caller: str, callee: str) -> Optional[tuple[str, int, int]]:
        """Where ``caller`` (a function or a module's top level) first calls the project function ``callee``."""
        return self.target_site(caller, lambda target: self.resolve_function(target) == callee)

    def call_path(self, roots: Iterable[str], goal: str) -> list[str]:
        """The shortest chain of project functions from one of ``roots`` to ``goal`` (both included),
        each calling the next; [] when none reaches it."""
        parents: dict[tuple, Optional[tuple]] = {}
        for node, parent in breadth_first([(root, None, _NOTHING_KNOWN) for root in roots if root in self.functions], self._callees_as):
            parents[node] = parent
            if node[0] == goal:
                chain = [node]
                while parents[chain[-1]] is not None:
                    chain.append(parents[chain[-1]])
                return [name for name, _self_class, _known in reversed(chain)]
        return []

    def reachable(self, roots: Iterable[str], callees=None) -> dict[str, str]:
        """Functions reachable from ``roots``: qualname -> the root it was first reached from.
        ``callees``: how a node's calls are followed (``_callees_as`` unless given)."""
        seen: dict[str, str] = {}
        root_of: dict[tuple, str] = {}
        for node, parent in breadth_first([(root, None, _NOTHING_KNOWN) for root in roots if root in self.functions], callees or self._callees_as):
            root_of[node] = node[0] if parent is None else root_of[parent]
            seen.setdefault(node[0], root_of[node])
        return seen

    def job_contexts(self, qualname: str) -> Mapping[frozenset, str]:
        """The constants its parameters are known to hold (``_callees_as``) in each way job code
        reaches ``qualname``, each with the job function it is first reached from: empty when no job
        reaches it. Computed once for every function."""
        found = self._memo.get("job_contexts")
        if found is None:
            found = self._memo["job_contexts"] = {}
            root_of: dict[tuple, str] = {}
            for node, parent in breadth_first([(root, None, _NOTHING_KNOWN) for root in sorted(self.job_roots) if root in self.functions], self._callees_as):
                root_of[node] = node[0] if parent is None else root_of[parent]
                found.setdefault(node[0], {}).setdefault(node[2], root_of[node])
        return found.get(qualname, {})

    def jobs_making(self, qualname: str, guards: Iterable[tuple]) -> list[str]:
        """The job functions (first reached from) along whose ways into ``qualname`` a call of its body
        that needs ``guards`` (param_guards) is made: none when each hands the parameters constants
        that some guard rejects, or the project fixes a constant or setting a guard rejects. In the
        order job code reaches ``qualname``."""
        guards = tuple(guards)
        making = []
        for known, root in self.job_contexts(qualname).items():
            values = dict(known)
            if root not in making and not any(contradicts(guard, self._guard_value(guard[0], values)) for guard in guards):
                making.append(root)
        return making

    @cached_property
    def job_code(self) -> dict[str, str]:
        """Every function that runs as part of a job: qualname -> the job's function."""
        return self.reachable(sorted(self.job_roots))

    def reached_from(self, kinds: frozenset) -> dict[str, str]:
        """Functions run by jobs of these kinds ("scheduled", "queued", ...) as part of a run:
        qualname -> job function. A coroutine a job starts as a task of its own
        (``create_task(self._flush_loop())``) runs beside the job, not in its run, and is not
        followed (_callees_in_the_run)."""
        cached = self._reach_by_kind.get(kinds)
        if cached is None:
            roots = sorted(name for name, jobs in self.job_roots.items() if any(job.kind in kinds for job in jobs))
            cached = self._reach_by_kind[kinds] = self.reachable(roots, self._callees_in_the_run)
        return cached

    def _callees_in_the_run(self, node: tuple) -> tuple:
        """_callees_as without the project coroutines the function hands to a task start as the
        coroutine it runs (create_task(self._loop()), not its name= argument): they run as tasks of
        their own. A task group's tasks are not left out: its block waits for them."""
        func = self.function(node[0])
        started = {
            self.resolve_function(handed) for target, key, handed in (func.call_handoffs if func is not None else ())
            if self._starts_a_task(target, key)
        }
        found = self._callees_as(node)
        return tuple(c for c in found if c[0] not in started) if started - {None} else found

    def _starts_a_task(self, target: str, key: str) -> bool:
        """Does a call of ``target`` run its argument ``key`` ("" for the first positional one) as a
        task nobody waits for (knowledge.WORK_STARTS of tasks, not a task group's)?"""
        name = self.canonical(target) or target
        if knowledge.TASK_GROUP.fullmatch(name.rsplit(".", 1)[0]):
            return False
        return any(
            start.discarded == "task" and start.matches(name, None) and key in ("", start.func[0])
            for start in knowledge.WORK_STARTS
        )

    def all_call_targets(self) -> set[str]:
        """Every call target in the project as resolved in its module (not canonical), plus every
        name passed to a recorded call (``atexit.register(POOL.shutdown)``). Computed once."""
        targets = self._memo.get("call_targets")
        if targets is None:
            targets = set()
            for summary in self.modules.values():
                targets.update(summary.module_calls)
                for func in summary.functions.values():
                    targets.update(func.calls)
                for call, _scope in summary.recorded_calls:
                    targets.update(ref_name(arg) for arg in as_call(call).args if ref_name(arg) is not None)
            self._memo["call_targets"] = targets
        return targets

    def message_callbacks(self) -> frozenset[str]:
        """Project functions a message library calls once per message it receives
        (knowledge.MESSAGE_CALLBACK_CALLS): ``Consumer(queues, on_message=self.on_message)``,
        ``callbacks=[handle]``, ``consumer.register_callback(handle)``, also through a parameter the
        library fills (``get_consumers(self, Consumer, channel)`` of a kombu ConsumerMixin:
        knowledge.FRAMEWORK_PARAMETERS). Computed once."""
        found = self._memo.get("message_callbacks")
        if found is None:
            names: set[str] = set()
            for summary in self.modules.values():
                for call, scope in summary.recorded_calls:
                    keys = knowledge.MESSAGE_CALLBACK_CALLS.get(self._called_api(call_name(call), scope) or "")
                    parts = as_call(call)
                    if not keys or parts is None:
                        continue
                    for key in keys:
                        handed = parts.first_arg if key == "0" and parts.args else parts.keyword(key)
                        for item in irmod.seq_items(handed) or (handed,):
                            function = self.resolve_function(ref_name(item)) if ref_name(item) else None
                            if function is not None:
                                names.add(function)
            found = self._memo["message_callbacks"] = frozenset(names)
        return found

    def _called_api(self, target: Optional[str], scope: Optional[str]) -> Optional[str]:
        """The canonical name of a call's target; for a parameter a library fills when it calls a
        method of a subclass (knowledge.FRAMEWORK_PARAMETERS), what the library hands there."""
        if not target:
            return None
        if target.startswith("?") and scope:
            func = self.function(scope)
            if func is not None and func.class_qualname and target[1:] in func.params:
                bases = self.class_bases(func.class_qualname) if func.class_qualname in self.classes else set()
                for (base, method, param), handed in knowledge.FRAMEWORK_PARAMETERS.items():
                    if method == func.name and param == target[1:] and base in bases:
                        return handed
            return None
        return self.canonical(target) or target

    def passed_refs(self) -> frozenset[str]:
        """Every global or attribute passed on as a value anywhere in the project (``helper(POOL)``). Computed once."""
        refs = self._memo.get("passed_refs")
        if refs is None:
            refs = self._memo["passed_refs"] = frozenset(path for summary in self.modules.values() for path in summary.passed_refs)
        return refs

    def default_timeouts(self) -> frozenset[str]:
        """The libraries (BlockingWait families) whose calls the project bounds process-wide: it
        assigns a function of its own taking ``timeout`` over one of knowledge.DEFAULT_TIMEOUT_PATCHES
        (``HTTPAdapter.send = send_with_default_timeout``), or makes one of knowledge.DEFAULT_TIMEOUT_CALLS
        (``socket.setdefaulttimeout(30)``). Computed once."""
        found = self._memo.get("default_timeouts")
        if found is None:
            families = set()
            for summary in self.modules.values():
                for path, value, *_rest in summary.attr_assignments:
                    family = knowledge.DEFAULT_TIMEOUT_PATCHES.get(path)
                    replacement = self.function(ref_name(value) or "") if family else None
                    if replacement is not None and "timeout" in replacement.params:
                        families.add(family)
            # ``socket.setdefaulttimeout(30)`` anywhere: the standard library's clients are bounded
            last_parts = {name.rsplit(".", 1)[-1] for name in knowledge.DEFAULT_TIMEOUT_CALLS}
            families.update(
                family for target in self.all_call_targets() if target.rsplit(".", 1)[-1] in last_parts
                for family in [knowledge.DEFAULT_TIMEOUT_CALLS.get(self.canonical(target) or "")] if family
            )
            found = self._memo["default_timeouts"] = frozenset(families)
        return found

    def setting(self, path: str) -> Optional[IR]:
        """What a settings object's attribute holds (``django.conf.settings.FEATURE``, a canonical
        path; knowledge.SETTINGS_OBJECTS): the IR every settings module of the project binds the name
        to, itself or through the project modules it star-imports. None when two bindings differ,
        when it is bound nowhere, when a settings module star-imports a module that is not in the
        project (a ``local_settings`` the deployer writes may set anything), and for the settings a
        deployment decides (knowledge.DEPLOYMENT_SETTINGS)."""
        owner, _, name = path.rpartition(".")
        marker = knowledge.SETTINGS_OBJECTS.get(owner)
        if marker is None or not name or path in knowledge.DEPLOYMENT_SETTINGS:
            return None
        found = None
        for summary in self.settings_modules(marker):
            value = self._setting_in(summary, name, set())
            if value is None or value is _UNKNOWABLE or (found is not None and value != found):
                return None
            found = value
        return found

    def settings_modules(self, marker: str) -> list[ModuleSummary]:
        """The project's settings modules: those that bind ``marker`` (knowledge.SETTINGS_OBJECTS). Computed once."""
        key = ("settings_modules", marker)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = [summary for summary in self.modules.values() if marker in summary.constants]
        return found

    def settings_names(self, marker: str) -> list[str]:
        """Every name the settings modules bind, themselves or through the project modules they
        star-import (the modules ``_setting_in`` reads), sorted."""
        names: set[str] = set()
        pending = list(self.settings_modules(marker))
        seen: set[str] = set()
        while pending:
            summary = pending.pop()
            if summary.module not in seen:
                seen.add(summary.module)
                names.update(summary.constants)
                pending.extend(self.modules[module] for module in self._star_import_modules(summary) if module in self.modules)
        return sorted(names)

    @staticmethod
    def _star_import_modules(summary: ModuleSummary) -> list[str]:
        """The modules a module star-imports (``from x import *``), in or out of the project."""
        return [module for key, module in summary.imports.items() if key.startswith(STAR_IMPORT)]

    def _setting_in(self, summary: ModuleSummary, name: str, seen: set):
        """The IR a settings module binds ``name`` to, itself or through its star imports of project
        modules (None: nowhere; _UNKNOWABLE: a star import from outside the project may bind it, or
        two bindings differ and the summary does not keep their order)."""
        seen.add(summary.module)
        values = [summary.constants[name]] if name in summary.constants else []
        for module in self._star_import_modules(summary):
            if module in seen:
                continue
            found = self._setting_in(self.modules[module], name, seen) if module in self.modules else _UNKNOWABLE
            if found is _UNKNOWABLE:
                return _UNKNOWABLE
            if found is not None:
                values.append(found)
        if not values:
            return None
        return values[0] if all(value == values[0] for value in values) else _UNKNOWABLE

    def settings_bounds(self) -> Mapping[str, str]:
        """Why the calls of a family in knowledge.SETTINGS_TIMEOUTS do not wait for ever, said as
        --verbose says it; a family missing here waits unbounded: the project has a settings
        module, it binds neither the timeout setting nor a backend other than the unbounded ones,
        and no socket default bounds it. Computed once."""
        found = self._memo.get("settings_bounds")
        if found is None:
            found = self._memo["settings_bounds"] = {
                family: reason
                for family, known in knowledge.SETTINGS_TIMEOUTS.items()
                for reason in [self._settings_bound(known)]
                if reason is not None
            }
        return found

    def _settings_bound(self, known: knowledge.SettingsTimeout) -> Optional[str]:
        if "socket" in self.default_timeouts():
            return "the project sets a default timeout for every socket (`socket.setdefaulttimeout`)"
        modules = self.modules.values()
        if not self.settings_modules(known.settings_marker):
            return f"no settings module in the project binds `{known.settings_marker}`: the deployer's settings decide"
        for summary in modules:
            if known.timeout in summary.constants:
                return f"`{known.timeout}` is set ({summary.path})"
        for summary in modules:
            if known.backend in summary.constants and self._picks_a_bounded_backend(known, summary.constants[known.backend]):
                return f"`{known.backend}` sends them elsewhere ({summary.path})"
            if known.named_backends in summary.constants:
                reason = self._named_backend_bound(known, summary.constants[known.named_backends])
                if reason is not None:
                    return f"{reason} ({summary.path})"
        return None

    def _picks_a_bounded_backend(self, known: knowledge.SettingsTimeout, backend: IR) -> bool:
        """Does this backend setting name anything but the unbounded backends (or a value that does
        not fold: read from the environment, the deployment decides)?"""
        name = self.fold(backend)
        return not isinstance(name, str) or name not in known.unbounded_backends

    def _named_backend_bound(self, known: knowledge.SettingsTimeout, setting: IR) -> Optional[str]:
        """Why the "default" entry of a setting of named backends (``MAILERS``) bounds the calls: its
        ``BACKEND`` is not an unbounded one (or not known: read from the environment), or its
        ``OPTIONS`` name a timeout. None when it picks an unbounded backend with no timeout, or when
        the setting is not a dict written out."""
        for key, entry in irmod.dict_entries(setting) or ():
            if key is None or self.fold(key) != "default":
                continue
            fields = {self.fold(k): v for k, v in irmod.dict_entries(entry) or () if k is not None}
            if "BACKEND" in fields and self._picks_a_bounded_backend(known, fields["BACKEND"]):
                return f"`{known.named_backends}` sends them elsewhere"
            options = irmod.dict_entries(fields.get("OPTIONS")) or ()
            if any(k is not None and self.fold(k) == "timeout" for k, _value in options):
                return f"`{known.named_backends}` sets a timeout"
        return None

    def is_job_code(self, qualname: Optional[str]) -> bool:
        return qualname is not None and qualname in self.job_code


def recorded_calls_to(index: ProjectIndex, names: Container[str]) -> Iterator[tuple[ModuleSummary, irmod.Call, str]]:
    """(module summary, the call, scope qualname) of every recorded call (``summary.recorded_calls``)
    whose callee's canonical name is one of ``names``, module by module."""
    for summary in index.modules.values():
        for ir, scope in summary.recorded_calls:
            call = as_call(ir)
            if call is not None and index.canonical(call.target) in names:
                yield summary, call, scope


def reads_facts(*facts: str):
    """Mark a model function that answers from the whole project (it goes over every module):
    what it returns is covered by these project facts (bgcheck.model.facts). A rule that calls
    it reads them; tests/test_facts.py, which hands rules a recording index, sees that here."""

    def decorate(function):
        @functools.wraps(function)
        def wrapper(index, *args, **kwargs):
            if not isinstance(index, ProjectIndex):  # the recording index of tests/test_facts.py
                index = index.reading(facts)
            return function(index, *args, **kwargs)

        wrapper.reads = facts
        return wrapper

    return decorate


def breadth_first(
    starts: Iterable[str], step: Callable[[str], Iterable[str]], max_depth: Optional[int] = None, skip: Container[str] = ()
) -> Iterator[tuple[str, Optional[str]]]:
    """The one search over the call graph: every node reached from ``starts``, nearest first,
    as (node, the node it was first reached from; None for a start). Parents come before
    their children, so a caller can build chains or tag roots as it goes.

    ``step`` gives a node's neighbours in the direction searched (``index.callees`` down the
    call graph, a callers map up it); ``max_depth`` bounds how many steps from a start are
    taken; ``skip`` holds nodes never entered (already known). It is lazy: a caller that looks
    for the nearest node with some property stops iterating when it finds one, and nothing
    past it is expanded."""
    seen: set[str] = set()
    queue: deque[tuple[str, int]] = deque()
    for start in starts:  # all before any search: a start reached from another stays a start
        if start not in seen and start not in skip:
            seen.add(start)
            queue.append((start, 0))
            yield start, None
    while queue:
        name, depth = queue.popleft()
        if max_depth is not None and depth >= max_depth:
            continue
        for neighbour in step(name):
            if neighbour not in seen and neighbour not in skip:
                seen.add(neighbour)
                queue.append((neighbour, depth + 1))
                yield neighbour, name


_PYTHON2_MODULES_LONGEST_FIRST = sorted(knowledge.PYTHON2_MODULES.items(), key=lambda item: -len(item[0]))
_PYTHON2_HEADS = frozenset(old.split(".", 1)[0] for old in knowledge.PYTHON2_MODULES)


def _known_instance(path: str) -> str:
    """Rewrite a factory call's result to the class it returns (``redis.from_url()`` -> ``redis.Redis()``)."""
    for _ in range(4):  # ``asyncio.get_running_loop().create_task()`` -> a loop's -> ``asyncio.Task()``
        if "()" not in path:
            return path
        for prefix, instance in knowledge.FACTORY_INSTANCES.items():
            if path == prefix or path.startswith(prefix + "."):
                path = instance + path[len(prefix) :]
                break
        else:
            return path
    return path


def _join(base: str, tail: list[str]) -> str:
    return ".".join([base, *tail]) if tail else base


def _is_lookup_with_a_collection_default(ir) -> bool:
    """``config.get("initial_messages", [])``: a ``get`` of a key written out whose default is a
    list, tuple, set or dict literal looks a collection up in a mapping (settings, a config dict);
    its items are in memory."""
    call = irmod.as_call(ir)
    if call is None or not call.target or call.target.rsplit(".", 1)[-1] != "get":
        return False
    key, default = call.arg(0), call.arg(1) if call.arg(1) is not None else call.keyword("default")
    return key is not None and key[0] == "v" and isinstance(key[1], str) and default is not None and default[0] in ("seq", "dict")


def _mentions(ir, holder: str) -> bool:
    """Does the IR use the object at ``holder`` anywhere inside it: the object itself, one of its
    attributes or methods (``iter(q.get, None)``), or a call on it?"""
    stack = [ir]
    while stack:
        node = stack.pop()
        if not node:
            continue
        path = irmod.ref_name(node) or call_name(node)
        if path and (path == holder or path.startswith((holder + ".", holder + "("))):
            return True
        stack.extend(irmod.sub_nodes(node))
    return False


class _LazyModules(Mapping):
    """module name -> its summary, read on first use (``load``); iterated in the index's order."""

    def __init__(self, names: Iterable[str], load: Callable[[str], ModuleSummary]) -> None:
        self._names = {name: None for name in names}
        self._loaded: dict[str, ModuleSummary] = {}
        self._load = load

    def __getitem__(self, name: str) -> ModuleSummary:
        summary = self._loaded.get(name)
        if summary is None:
            if name not in self._names:
                raise KeyError(name)
            summary = self._loaded[name] = self._load(name)
        return summary

    def get(self, name, default=None):
        return self[name] if name in self._names else default

    def __contains__(self, name) -> bool:
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


class _LazyMembers(Mapping):
    """function (or class) qualname -> (its module's summary, its summary), the module read on first use."""

    def __init__(self, where: dict[str, str], modules: _LazyModules, kind: str) -> None:
        self._where = where  # qualname -> module name, in the index's order
        self._modules = modules
        self._kind = kind  # "functions" or "classes"

    def __getitem__(self, qualname: str):
        summary = self._modules[self._where[qualname]]
        return summary, getattr(summary, self._kind)[qualname]

    def get(self, qualname, default=None):
        return self[qualname] if qualname in self._where else default

    def owner(self, qualname) -> Optional[str]:
        """The module that defines ``qualname`` (its summary not read), or None."""
        return self._where.get(qualname)

    def __contains__(self, qualname) -> bool:
        return qualname in self._where

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)


class Catalog:
    """What ``ProjectIndex.__init__`` makes of the summaries (modules, functions, classes) without
    the summaries: names in the index's order, each summary read when first asked for.
    ``order``: (module name, its function qualnames, its class qualnames) in the index's module
    order; ``load``: module name -> its summary (the same summary the names came from)."""

    def __init__(self, order: Iterable[tuple[str, Iterable[str], Iterable[str]]], load: Callable[[str], ModuleSummary]) -> None:
        order = list(order)
        self.modules = _LazyModules((name for name, _f, _c in order), load)
        functions: dict[str, str] = {}
        classes: dict[str, str] = {}
        for name, function_names, class_names in order:  # a later module's qualname wins, at the first one's place (as a dict)
            functions.update(dict.fromkeys(function_names, name))
            classes.update(dict.fromkeys(class_names, name))
        self.functions = _LazyMembers(functions, self.modules, "functions")
        self.classes = _LazyMembers(classes, self.modules, "classes")


def catalog_order(index: ProjectIndex) -> list[tuple[str, list[str], list[str]]]:
    """The index's modules in order, each with its function and class qualnames (a Catalog's ``order``)."""
    return [(name, list(summary.functions), list(summary.classes)) for name, summary in index.modules.items()]
