"""The project models as plain data, for the cache: a run whose summaries are those of an earlier
run (an edit inside a function that changed no summary, a file's comment) restores the models
instead of building them again, and reads a summary only when something asks for it.

The models are a function of the summaries (every field but the functions' local bindings, which
only the file's own check reads: load/unit.py summary_digest) and of the settings they are built
with (the configuration, the entry points, the runtimes), so ``model_key`` is a digest of exactly
these: the same key, the same models. What is stored: the catalog (each module with its functions
and classes, in the index's order; project.py Catalog), every model of ``Project.MODELS`` but
those made from others (``job_roots``, from the jobs) or from the settings (``runtimes``), the job
code, and what a run derived from the models: the digest of each project fact it computed
(model/facts.py) and each module's import-closure hash (load/cache_keys.py). A fact a later run
needs and the entry lacks is computed then, on the restored index.

A run whose files changed only in where their lines are (lines added or removed: summaries of
the same shape, load/unit.py shape_digest) relocates the last stored models (``relocate``): the
places they hold (a job's, a lock's, a money chain's steps) move through each changed file's line
map, made by pairing its old and new summaries' positions one to one; the fact digests and import
closures stay (neither depends on where lines are). A place not among those positions, an old
summary no longer cached, a file added or removed: the models are built again.

The encoding is generic but closed: values are None, booleans, numbers, strings, tuples, lists,
sets, dicts and instances of the dataclasses and enums listed in ``_CLASSES``, the UNKNOWN of
folding, and lock APIs of knowledge.LOCK_APIS by position. Anything else cannot be stored (the
entry is not written); on the way back, anything not of these shapes is a DataError (a miss: the
models are built again). Nothing in an entry names code to run.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import typing
from typing import Any, Callable, Optional, Union

from bgcheck import knowledge
from bgcheck.load.cache import digest
from bgcheck.load.serial import DataError
from bgcheck.load.summary import ModuleSummary, summary_positions
from bgcheck.load.unit import shape_digest
from bgcheck.model.build import Project
from bgcheck.model.celery_config import CeleryConfig, Setting
from bgcheck.model.execution import ExecutionModel
from bgcheck.model.jobs import Job, Schedule, job_roots
from bgcheck.model.locks import Expiry, LockSite
from bgcheck.model.money import Link, MoneyModel
from bgcheck.model.project import Catalog, catalog_order
from bgcheck.model.shutdown import EntryPoint, ShutdownModel, ShutdownRoot
from bgcheck.model.transactions import Step, TransactionModel
from bgcheck.syntax.ir import UNKNOWN, TimeDelta

ENTRY_VERSION = 40  # 2: ShutdownModel.atexit_only; 3: the files' keys, for relocation; 4: frameworks_without_jobs; 5: jobs found through runner classes and decorator classes; 6: paths imported from an inner sys.path folder; 7: ExecutionModel.exit_raising and signals_raise_exit; 8: Tornado jobs, never_suspends, main-thread jobs that get no stop; 9: a library module's __main__ block (a harness) is no entry point; 10: Nautobot and NetBox job classes; 11: a Celery app known by how the project configures it; 12: import_string's path by keyword; 13: suspends_only_at and the never-suspending fact; 14: CKAN's enqueue_job starts RQ jobs, calls through self and super() run the job class's methods; 15: socket.setdefaulttimeout() bounds the standard library's clients; 16: a project subclass of celery.Celery makes Celery apps; 17: calls ruled out by constants through arguments are not reached; 18: CKAN harvesters' stages and Luigi tasks are jobs; 19: threading.Timer starts a thread job; 20: _thread.start_new_thread and multiprocessing processes are jobs; 21: Celery 3 module-level task decorators and task classes; 22: tasks on platforms' Celery apps; 23: calls ruled out by module constants and settings are not reached; 24: ProcessPoolExecutor submissions are child-process jobs; 25: apps a library function returns (knowledge.CELERY_APP_FACTORIES); 26: awaited_io in summaries, the losing-I/O fact; 27: namespace packages inside packages; 28: Django admin methods run in a transaction; 29: functions a framework runs in its transaction (hooks_in_transaction); 30: ATOMIC_REQUESTS set key by key, editing views under it; 31: receivers_left_out; 32: lock TTLs through arguments; 33: jobs on methods of objects bgcheck cannot type, self calls a base leaves to its subclasses, Airflow's jobs; 34: a task of asyncio.to_thread(f) is f's job; 35: a lambda target runs its body's call; 36: TransactionModel.committed_by_callers; 37: Python 2 and six.moves module names canonicalise to Python 3's; 38: ShutdownModel.other_signals; 39: self attributes of a factory method or handed in; 40: ATOMIC_REQUESTS set on a handed-in settings object
_CLASSES: dict[str, type] = {
    cls.__qualname__: cls
    for cls in (CeleryConfig, Setting, ExecutionModel, Job, Schedule, LockSite, Link, MoneyModel, EntryPoint, ShutdownModel,
                ShutdownRoot, Step, TransactionModel, TimeDelta)
}
_ENUMS: dict[str, type] = {Expiry.__qualname__: Expiry}
# Models a restored index makes again rather than reading: from the jobs, from the run's settings.
_DERIVED = ("job_roots", "runtimes")
_STORED = tuple(name for name in Project.MODELS if name not in _DERIVED)


def settings_key(config, scripts: Optional[dict], runtimes: Optional[dict]) -> str:
    """What the models are built from besides the summaries: the configuration, the entry points, the runtimes."""
    return digest("model settings", ENTRY_VERSION, config, sorted((scripts or {}).items()), sorted((k, v.seconds, v.source) for k, v in (runtimes or {}).items()))


def model_key(units, settings: str) -> str:
    """What the models are built from: every analysed file's summary digest (and where it is), and the settings."""
    return digest("project models", settings, sorted((u.display, u.summary_digest) for u in units if u.error is None))


# The one entry of kind "models" that names the last models stored (``{"key": model key}``): a run
# whose files only moved lines since (summaries of the same shape) relocates those (``relocate``).
LAST_KEY = digest("the last project models")


# ---------------------------------------------------------------------------
# values


def _encode(value: Any) -> Any:
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if kind is int:
        return ["i", str(value)] if abs(value) >= 2**53 else value
    if kind is float:
        return ["f", value.hex()]
    if kind is tuple:
        return ["t", [_encode(item) for item in value]]
    if kind is list:
        return ["l", [_encode(item) for item in value]]
    if kind is set or kind is frozenset:
        return ["s" if kind is set else "fs", [_encode(item) for item in value]]
    if kind is dict:
        return ["d", [[_encode(k), _encode(v)] for k, v in value.items()]]
    if kind is bytes:
        return ["b", value.decode("latin-1")]
    if value is UNKNOWN:
        return ["u"]
    if isinstance(value, enum.Enum) and _ENUMS.get(kind.__qualname__) is kind:
        return ["e", kind.__qualname__, value.name]
    if kind is knowledge.LockApi:
        for position, api in enumerate(knowledge.LOCK_APIS):
            if api is value:
                return ["k", position]
        raise DataError("a lock API outside knowledge.LOCK_APIS")
    if _CLASSES.get(kind.__qualname__) is kind:
        fields = dataclasses.fields(value)
        if not all(f.init for f in fields):
            raise DataError(f"{kind.__qualname__} has a field its constructor does not take")
        return ["c", kind.__qualname__, [_encode(getattr(value, f.name)) for f in fields]]
    raise DataError(f"cannot store a {kind.__name__}")


def _decode(data: Any) -> Any:
    kind = type(data)
    if data is None or kind is bool or kind is str or kind is int:
        return data
    if kind is not list or not data or type(data[0]) is not str:
        raise DataError("not a stored value")
    tag, rest = data[0], data[1:]
    if tag in ("t", "l", "s", "fs") and len(rest) == 1 and type(rest[0]) is list:
        items = [_decode(item) for item in rest[0]]
        return {"t": tuple, "l": list, "s": set, "fs": frozenset}[tag](items)
    if tag == "d" and len(rest) == 1 and type(rest[0]) is list:
        out = {}
        for pair in rest[0]:
            if type(pair) is not list or len(pair) != 2:
                raise DataError("a map item is not a pair")
            out[_decode(pair[0])] = _decode(pair[1])
        return out
    if tag == "i" and len(rest) == 1 and type(rest[0]) is str and len(rest[0]) <= 100:
        return int(rest[0])
    if tag == "f" and len(rest) == 1 and type(rest[0]) is str and len(rest[0]) <= 40:
        return float.fromhex(rest[0])
    if tag == "b" and len(rest) == 1 and type(rest[0]) is str:
        return rest[0].encode("latin-1")
    if tag == "u" and not rest:
        return UNKNOWN
    if tag == "e" and len(rest) == 2 and rest[0] in _ENUMS and type(rest[1]) is str:
        try:
            return _ENUMS[rest[0]][rest[1]]
        except KeyError:
            raise DataError("not a member") from None
    if tag == "k" and len(rest) == 1 and type(rest[0]) is int and 0 <= rest[0] < len(knowledge.LOCK_APIS):
        return knowledge.LOCK_APIS[rest[0]]
    if tag == "c" and len(rest) == 2 and rest[0] in _CLASSES and type(rest[1]) is list:
        cls = _CLASSES[rest[0]]
        fields = _field_hints(cls)
        if len(rest[1]) != len(fields):
            raise DataError(f"{rest[0]} with {len(rest[1])} fields")
        values = {}
        for (name, hint), stored in zip(fields, rest[1]):
            value = values[name] = _decode(stored)
            if not _fits(value, hint):
                raise DataError(f"{rest[0]}.{name} is not of its type")
        return cls(**values)
    raise DataError(f"unknown stored value {tag!r}")


_HINTS: dict[type, dict] = {}


def _hints(cls: type) -> dict:
    """A class's field annotations, resolved (once)."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


_FIELD_HINTS: dict[type, tuple] = {}


def _field_hints(cls: type) -> tuple[tuple[str, Any], ...]:
    """(name, annotation) of a dataclass's fields in order, once per class (thousands of values are decoded per run)."""
    if cls not in _FIELD_HINTS:
        hints = _hints(cls)
        _FIELD_HINTS[cls] = tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))
    return _FIELD_HINTS[cls]


_HINT_PARTS: dict[Any, tuple] = {}


def _hint_parts(hint: Any) -> tuple:
    """``typing.get_origin`` and ``get_args`` of an annotation, once per annotation."""
    if hint not in _HINT_PARTS:
        _HINT_PARTS[hint] = (typing.get_origin(hint), typing.get_args(hint))
    return _HINT_PARTS[hint]


def _fits(value: Any, hint: Any) -> bool:
    """Is ``value`` of the annotated type (containers item by item; an unparameterised one by its kind only)?"""
    if hint is Any or hint is object:
        return True
    if hint is type(None):
        return value is None
    origin, args = _hint_parts(hint)
    if origin is Union:
        return any(_fits(value, arg) for arg in args)
    if origin is None:
        if hint is float:
            return type(value) in (float, int)
        if hint is int or hint is bool:
            return type(value) is hint
        return isinstance(value, hint) if isinstance(hint, type) else True
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(item, args[0]) for item in value)
        return not args or (len(args) == len(value) and all(_fits(item, arg) for item, arg in zip(value, args)))
    if origin in (list, set, frozenset):
        return type(value) is origin and (not args or all(_fits(item, args[0]) for item in value))
    if origin in (dict, collections.abc.Mapping):
        return type(value) is dict and (not args or all(_fits(k, args[0]) and _fits(v, args[1]) for k, v in value.items()))
    return isinstance(value, origin)


# ---------------------------------------------------------------------------
# the entry


def encode_project(index: Project, facts: dict, closures: dict, units=(), settings: str = "") -> dict:
    """The stored form of a built index (``facts``: fact name -> digest; ``closures``: module ->
    import-closure hash; ``units``: the files it was built from, whose keys let a later run find
    the summaries it saw). Raises DataError when a model holds what cannot be stored."""
    return {
        "settings": settings,
        "files": _files(units),
        "version": ENTRY_VERSION,
        "catalog": [[name, functions, classes] for name, functions, classes in catalog_order(index)],
        "paths": [summary.path for summary in index.modules.values()],
        "models": [[name, _encode(getattr(index, name))] for name in _STORED],
        "job_code": _encode(dict(index.job_code)),
        "facts": dict(facts),
        "closures": {name: str(value) for name, value in closures.items()},
    }


def _files(units) -> dict:
    """display path -> [content key, summary digest] of every analysed file."""
    return {u.display: [u.content_key, u.summary_digest] for u in units if u.error is None}


# ---------------------------------------------------------------------------
# relocation: the models of summaries whose files only moved lines

# Stored classes whose instances are places in a file (their ``path`` and ``line``, and ``column``):
# tests/test_model_persist.py holds every stored class with a position to this table.
_PLACES = {cls.__qualname__: tuple(f.name for f in dataclasses.fields(cls)) for cls in (Job, LockSite, Link)}


class _Unplaced(Exception):
    """A stored position the line map does not know: the models are built again."""


class _Moves:
    """Where a file's positions went: its old and new summaries' positions, paired one to one."""

    def __init__(self, old: list, new: list) -> None:
        self.spots: dict[tuple, object] = {}
        self.lines: dict[int, set] = {}
        for before, after in zip(old, new):
            if before[0]:
                self.spots[before] = after if self.spots.get(before, after) == after else None  # None: two places
                self.lines.setdefault(before[0], set()).add(after[0])

    def line(self, line: int) -> int:
        if not line:
            return line
        found = self.lines.get(line)
        if found is None or len(found) != 1:
            raise _Unplaced(line)
        return next(iter(found))

    def spot(self, line: int, column: int) -> tuple[int, int]:
        """A (line, column): the position it was recorded at, or a ``def`` line (column 0 or 1: a note at the def)."""
        if not line:
            return line, column
        found = self.spots.get((line, column))
        if found is not None:
            return found
        if column in (0, 1):
            return self.line(line), column
        raise _Unplaced((line, column))


def _moved(value, moves: dict):
    """An encoded value (``_encode``) with the places in moved files moved (a new value: the
    cache may keep the old one in memory)."""
    if type(value) is not list or not value or type(value[0]) is not str:
        return value
    tag = value[0]
    if tag in ("t", "l", "s", "fs") and len(value) == 2 and type(value[1]) is list:
        return [tag, [_moved(item, moves) for item in value[1]]]
    if tag == "d" and len(value) == 2 and type(value[1]) is list:
        return [tag, [[_moved(k, moves), _moved(v, moves)] for k, v in value[1]]]
    if tag == "c" and len(value) == 3 and type(value[2]) is list:
        fields = [_moved(item, moves) for item in value[2]]
        names = _PLACES.get(value[1])
        if names is not None and len(fields) == len(names):
            where = dict(zip(names, fields))
            found = moves.get(where["path"])
            if found is not None and type(where["line"]) is int:
                if "column" in where and type(where["column"]) is int:
                    where["line"], where["column"] = found.spot(where["line"], where["column"])
                else:
                    where["line"] = found.line(where["line"])
                fields = [where[name] for name in names]
        return ["c", value[1], fields]
    return value


def relocate(data: Any, units, settings: str, old_summary: Callable, new_summary: Callable) -> Optional[dict]:
    """The stored entry ``data``, made for these units: when the same files are analysed with the
    same settings and each file whose summary changed has one of the same shape (only its lines
    moved: load/unit.py shape_digest), its places in the models are moved to the new lines. None
    when not, or when a place is not among the summary's positions. The facts' digests and the
    import-closure hashes stay as they are: neither depends on where lines are (model/facts.py).
    ``old_summary``: content key -> the summary cached under it, or None; ``new_summary``: unit -> its summary."""
    if type(data) is not dict or data.get("version") != ENTRY_VERSION or data.get("settings") != settings:
        return None
    files = data.get("files")
    current = {u.display: u for u in units if u.error is None}
    if type(files) is not dict or files.keys() != current.keys():
        return None
    moves = {}
    for display, row in files.items():
        unit = current[display]
        if type(row) is not list or len(row) != 2 or row[1] == unit.summary_digest:
            continue
        old, new = old_summary(row[0]), new_summary(unit)
        if old is None or new is None or shape_digest(old) != shape_digest(new):
            return None
        moves[display] = _Moves(summary_positions(old), summary_positions(new))
    models = data.get("models")
    if type(models) is not list:
        return None
    try:
        models = [[row[0], _moved(row[1], moves)] if type(row) is list and len(row) == 2 else row for row in models]
    except _Unplaced:
        return None
    return {**data, "models": models, "files": _files(units)}


class Restored:
    """A stored entry, decoded: the index (summaries read through ``load``) and what the run that
    stored it derived from it."""

    def __init__(self, data: Any, load: Callable[[str], ModuleSummary], runtimes: Optional[dict]) -> None:
        """``load``: display path -> that file's summary."""
        if type(data) is not dict or data.get("version") != ENTRY_VERSION:
            raise DataError("not a models entry of this version")
        paths = data.get("paths")
        if type(paths) is not list or not all(type(p) is str for p in paths):
            raise DataError("no paths")
        self.index = _restore_index(data, paths, load, runtimes)
        self.data = data
        self.facts = _str_map(data.get("facts"), "facts")
        closures = _str_map(data.get("closures"), "closures")
        if not all(value.isdigit() and len(value) <= 40 for value in closures.values()):
            raise DataError("a closure hash is not a number")
        self.closures = {name: int(value) for name, value in closures.items()}

    def with_facts(self, facts: dict) -> dict:
        """The entry again, with these fact digests (a run computed facts it lacked)."""
        return {**self.data, "facts": dict(facts)}


def _summary_of(summary: Optional[ModuleSummary], module: str) -> ModuleSummary:
    if summary is None or summary.module != module:  # the key says this cannot be: a bug, not a miss
        raise RuntimeError(f"the stored models name module {module!r}, which its file's summary is not")
    return summary


def _str_map(value, what: str) -> dict:
    if type(value) is not dict or not all(type(v) is str for v in value.values()):
        raise DataError(f"{what} are not a map of strings")
    return value


def _restore_index(data: dict, paths: list, load, runtimes: Optional[dict]) -> Project:
    catalog = data.get("catalog")
    if type(catalog) is not list or len(catalog) != len(paths):
        raise DataError("no catalog")
    order = []
    for row in catalog:
        if type(row) is not list or len(row) != 3 or type(row[0]) is not str or type(row[1]) is not list or type(row[2]) is not list:
            raise DataError("a catalog row is not (module, functions, classes)")
        if not all(type(q) is str for q in row[1]) or not all(type(q) is str for q in row[2]):
            raise DataError("a qualname is not a string")
        order.append((row[0], row[1], row[2]))
    models = data.get("models")
    if type(models) is not list or [row[0] if type(row) is list and len(row) == 2 else None for row in models] != list(_STORED):
        raise DataError("not the models of this version")
    values = {name: _decode(value) for name, value in models}
    hints = _hints(Project)
    for name, value in values.items():
        if not _fits(value, hints[name]):
            raise DataError(f"the {name} model is not of its type")
    where = {row[0]: path for row, path in zip(order, paths)}
    index = Project((), Catalog(order, lambda module: _summary_of(load(where[module]), module)))
    for name in Project.MODELS:  # in build_index's order
        if name == "job_roots":
            index.set_model(name, job_roots(values["jobs"]))
        elif name == "runtimes":
            index.set_model(name, dict(runtimes or {}))
        else:
            index.set_model(name, values[name])
    job_code = _decode(data.get("job_code"))
    if type(job_code) is not dict or not all(type(k) is str and type(v) is str for k, v in job_code.items()):
        raise DataError("job code is not a map of names")
    index.__dict__["job_code"] = job_code  # the cached_property's value, as the built index computed it
    return index.seal()
