"""The result cache: re-runs are near instant when little has changed.

Ten kinds of entry under ``<root>/.bgcheck_cache/v<bgcheck version>-py<X.Y>/<kind>/``,
each plain data (JSON, see serial.py); their keys are made in cache_keys.py:

* ``summaries``: a file's phase-1 result (its summary, or its BG000, and the summary's
  digest), under the file's content key (its bytes, its display path, its module name);
* ``digests``: that summary's digest and the BG000, under the same key: all a run needs
  of a file when every result is served from the cache (the summary is then never read);
* ``results``: a file's diagnostics before per-file ignores, under its result key (its
  content key; the configuration, runtimes, enabled rules and entry points; the project-wide
  facts digest, model/facts.py; the interfaces of the project modules it imports), with the
  summary digest of each other file its notes point into (valid while those are unchanged);
* ``bundles``: every file's diagnostics at once, under the project key (every file's content
  key and summary digest, and the same settings): one read when nothing changed (named
  files take their results from it too);
* ``states``: per working directory, each file's size, times and inode with its content key,
  summary digest and BG000 (load/file_states.py): a warm run does not read unchanged files.
* ``folders``: per walk (its start folder, the root, the exclude patterns), what the walk kept of
  each folder under the folder's stat (load/file_states.py FolderStates): an unchanged folder is
  not listed again.
* ``interfaces``: one entry, each summary's digest -> the hash of its interface (what other
  modules see of it; cache_keys.py): the result keys of a run that builds the index do not
  encode every unchanged summary again.
* ``warnings``: the run's warnings about configured runtimes that match no job or lock, under
  the project key: a run that changed nothing does not build the index to repeat them.
* ``models``: the project models (model/persist.py), under the digest of every summary digest
  and the settings they are built from, with the project-fact digests and import-closure hashes
  the run derived from them: a run whose summaries are all as before (an edited comment, a
  local bound to another value) restores them instead of building the index, and reads a
  summary only when a check asks for it. One more entry of this kind names the last models
  stored: a run whose changed files only moved lines relocates those (model/persist.py).
* ``recent``: one entry, the last bundle's results each with its result key: a run that misses
  the bundle takes every result whose key is unchanged from it in one read.

A file's diagnostics can depend on any other module (a callee starts moving
money, a settings module turns on ``acks_late``), so the facts that cross files
are part of every result key; a change inside a function body that leaves
every summary alone (a message, a comment) reuses everything else.

Keys are digests of a canonical form of their parts (sets sorted,
dataclasses field by field), so they are the same in every process whatever
the hash seed: a key that changed from run to run would never hit.

The cache is data, never code: a cache folder may come with a repository,
so nothing in it is trusted. An entry is read only if it is a regular file
(not a link, not a FIFO) within the size limit whose first line names this
entry format, this bgcheck and Python, this kind and this key; the rest is
JSON, converted back field by field with every type checked. Anything else
(corrupt, truncated, foreign, of another shape, a pickle) is a miss, and is
rewritten. Writes are atomic (a temporary file, then a rename) and never go
through a link inside the cache; the cache never makes a run fail.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import os
import stat
import sys
import threading
from pathlib import Path, PurePath
from typing import Any, Optional

import bgcheck
from bgcheck.load import serial
from bgcheck.load.discovery import CACHE_DIR_NAME, cache_folder



def _canonical(value: Any) -> Any:
    """``value`` in a form whose repr does not depend on the hash seed (sets and
    frozensets sorted) nor on how a class spells its repr (dataclasses field by field)."""
    if isinstance(value, (str, bytes, int, float, bool, type(None), enum.Enum)):
        return value
    if isinstance(value, PurePath):
        return ("path", value.as_posix())
    if isinstance(value, (set, frozenset)):
        return ("set", sorted((_canonical(item) for item in value), key=repr))
    if isinstance(value, dict):
        return ("dict", sorted(((_canonical(k), _canonical(v)) for k, v in value.items()), key=repr))
    if isinstance(value, (list, tuple)):  # a string is its own canonical form: not called for each (keys are lists of them)
        return (type(value).__name__, [item if type(item) is str else _canonical(item) for item in value])
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (
            type(value).__qualname__,
            [(f.name, _canonical(getattr(value, f.name))) for f in dataclasses.fields(value)],
        )
    return value


def digest(*parts: Any) -> str:
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, bytes):
            h.update(part)
        else:
            h.update(repr(_canonical(part)).encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def version_tag() -> str:
    """The cache's namespace: bgcheck's version (read at each use, never frozen at import)
    and the Python version (CPython's syntax-error messages, in a cached BG000, differ between them)."""
    return f"v{bgcheck.__version__}-py{sys.version_info[0]}.{sys.version_info[1]}"


# An entry's first line: what it is, for which bgcheck, under which key. Checked, byte for
# byte, before anything else in the entry is looked at.
# 3: diagnostics carry their fix; 4: and their explanation; 5: summaries keep handoffs; 6: an attribute
# assignment keeps its place among the recorded calls (Celery settings apply in program order); 7: a queue put
# made once per run of its loop (the loop is left after it) records the next loop out; summaries keep the
# alternative bindings of a module name; 8: functions keep which calls they make only in cleanup (``finally:``
# blocks outside loops); 9: and the names they hand to a call (ref_handoffs: the job model's call wrappers);
# 10: summaries record django-q's AsyncTask(...) calls; 11: the calls in class bodies and the
# except clauses and finally blocks (the rules' relevance tests); 12: results record the files their notes
# point into; 13: summaries are built from CPython's ast (every call located, a BG000 for syntax
# newer than the running Python); 14: a file of syntax newer than the running Python is summarised from
# libcst (load/newer_syntax.py), and BG000 messages are short, their detail in the explanation;
# 15: function summaries say whether no exception leaves the function (keeps_its_errors);
# 16: a ``partial(f, x)`` hands x on to f (param_handoffs: call wrappers through a partial), star
# imports are kept in imports, and keeps_its_errors ignores bare strings as it did docstrings.
# 17: `# noqa BG101` (no colon) is malformed and suppresses nothing (it suppressed every code); a
# constant statement besides the docstring leaves keeps_its_errors as it is; 18: summaries record
# run_coroutine_threadsafe calls (a coroutine run as a task of its own on another thread's loop);
# 19: BG203's waits for work on this machine are BG206's, and BG101 follows two more stop protocols
# (cached results of the same version must not show the old codes); 20: a function that returns
# the same module global on every path returns a reference to it (``get_controller()``), and
# ``self.x = param`` of an annotated parameter holds what the annotation names; 21: a ``->
# Callable[...]`` annotation no longer stands for what a function returns (its returned value does);
# 22: a call through a local holding a bound method hands its arguments to that method, and a
# parameter rebound only to the result of the call that hands it on is still handed on; 23: a
# file's results keep the places where a model fact kept a rule silent (--verbose notes); 24:
# function summaries say which parameters a coroutine only awaits and returns (awaits_through),
# and a put in a loop that takes from the same queue is recorded as a re-queue; 25: function
# summaries record parameters stored into containers and containers whose items are called (registries);
# 26: files with match-class keyword patterns are summarised (they were a BG000 internal error);
# 27: on Pythons before 3.12, a ``type`` statement of a parenthesised value is read (it was a BG000),
# function summaries record the calls beside a try that keeps every error (calls_beside_kept_try), and
# ``# noqa F401`` (no colon, no code of ours) is not warned of;
# 28: calls named dispatch / adispatch are recorded (pulpcore's dispatch() queues a job);
# 29: function summaries record the calls a coroutine ends on (tail_calls), and calls in an ``except``
# handler that always raises count as cleanup (cleanup_calls);
# 30: function summaries record parameters kept as attributes (param_attrs), and calls named
# Consumer / register_callback are recorded (kombu's per-message callbacks);
# 31: a ``while`` loop that drains a queue until it is empty is a sized loop (queue_puts), BG104
# is silent where the handler ends the task, and function summaries say whether a coroutine function
# never suspends (never_suspends); 32: Tornado IOLoop callback calls are recorded (jobs);
# 33: the execution model leaves out of the stopped jobs the main-thread jobs of a project whose
# signal handlers raise nothing (knowledge.SIGNAL_STOPPED_FRAMEWORKS); 34: BG104 is silent inside an
# except clause that always re-raises; 35: a noqa or per-file ignore of a code also covers the codes
# split from it (catalog.SPLIT_FROM); 36: no money name patterns by default (a name never makes money);
# 37: BG105 split from BG101 (BG101 keeps the loop that goes on), InterruptedError is no stop, and
# BG101 follows the deferred re-raise and a loop whose flag its canceller sets; 38: a directory listing
# is a sized iteration (BG301), a put retried until it fits is no drop (BG304); 39: a handler that
# leaves once its stop event or flag is set is BG105's, not BG101's; 40: Nautobot's and NetBox's job
# classes are jobs (knowledge.LIBRARY_JOB_CLASSES); 41: an object of a class bgcheck cannot name that the
# project configures as a Celery app is one (knowledge.CELERY_APP_SETUP_METHODS); 42: import_string's
# path given by keyword (``dotted_path=``) is followed; 43: function summaries record the calls at an
# async function's suspension points (suspends_only_at), and an await of a project coroutine that
# never suspends is no point a cancellation can arrive at (ProjectIndex.never_suspending); 44: calls
# of CKAN's ``enqueue_job`` are recorded (an RQ job start); calls through ``self`` and ``super()`` run the
# job class's methods (job code reaches a subclass's override); 45: a wait for a process killed just
# before is no unbounded wait (BG203, BG206); 46: the standard library's network clients made with no
# timeout are BG203 waits, unless the project calls socket.setdefaulttimeout(); 47: an instance of a
# project subclass of celery.Celery is a Celery app; 48: constants through arguments (call guards,
# arguments handed on, constant defaults in function summaries); 49: CKAN harvesters' stages and Luigi
# tasks' run() are jobs; 50: threading.Timer's function is a thread job (recorded calls); 51: call
# guards read from the summary walk (a parameter bound again, the parameters a condition names);
# 59: Django's mail API in job code waits unbounded under SMTP settings without EMAIL_TIMEOUT (BG203);
# 60: FunctionSummary.guard_params (a call among several of one target ruled out by its own guard);
# 61: urlretrieve(), XML-RPC ServerProxy and httplib2.Http are BG203 waits; 62: calls under tests
# of settings and module constants that rule them out (BG203, BG206); 63: tasks on platforms' Celery
# apps (knowledge.PLATFORM_CELERY_APPS) are jobs; 64: a cancellation handler that sets the local flag
# ending its while loop ends a task (BG101, BG105); 65: guards on module constants and settings
# in FunctionSummary.call_guards ("@" keys): calls they rule out are not made; 66: the rules read a
# call's own guards on constants and settings from param_guards too (one evaluator), and an exit
# followed by more statements on its line still ends the block. 67: a while loop that pops from
# the list it tests is sized (BG301). 68: a flag set before a call of a method that cancels counts
# as set before the cancel (BG101). 69: a task sending itself again with its own arguments is a
# retry (BG604); ``while True: if self.flag: break`` tests its flag as its condition would (BG101,
# BG206); ``proc.wait()`` after ``proc.communicate()`` only collects the exit status (BG206). 70: a
# multiprocessing pool's ``apply_async().get()`` is no Celery result (BG203). 71: function summaries
# say whether the function returns the running task's cancelling() test (tests_own_cancelling).
# 72: a scheduled task sent with no arguments from a transaction is not reported (BG604). 73: a
# handler setting the local flag its ``while`` tests ends the loop: BG105's, not BG101's. 74: a
# ``while`` loop that checks a queue's qsize() before it puts fills up to a bound (BG301). 75:
# BG101 decides "a ``for`` over items in memory" as BG301 does (ProjectIndex.is_stream_loop). 76:
# a handler that calls uncancel() on the running task consumes the cancellation on purpose. 77:
# Django 6.1's MAILERS picks the mail backend and may set its timeout (BG203). 78: a kill under
# ``suppress(OSError)`` or in a ``try:`` before a wait is the kill-then-reap idiom (BG206). 79:
# a handler that returns on every path ends its function wherever its ``try`` stands (BG104...).
# 80: BG106 split from BG104 (the soft limit swallowed where no loop goes round again). 81: a
# write-if-absent whose key the same function counts up (cache.incr) is a counter, not a lock.
# 82: function summaries say whether every await is of a task the function made and handed to
# someone else (awaits_a_handed_task): a caller's cancel handler may get that task's (BG101). 83:
# ``await t`` inside ``for t in done:`` is of a done task though the function binds ``t`` elsewhere too.
# 84: a task made and handed over (stored, passed, read by a closure) in the handler's own function.
# 85: a ``for`` over ``as_completed(...)`` is sized (BG101, BG301). 86: awaiting handed tasks moves
# BG101 to BG105 only in a ``while`` with a test; BG101 is a default rule. 87: a coroutine whose every
# suspension point is in a try that keeps CancelledError (keeps_its_cancellation) lets none reach its
# caller; tasks a comprehension keeps when done; a handler's flag read by the next ``if`` that leaves,
# or set by a method of the class the handler calls, ends the loop (BG101); function summaries list the
# tasks a coroutine makes and hands over (handed_tasks), which BG101 reads instead of the file's tree;
# BG103 reads where a cancellation can arrive as BG101 does; ``# noqa: RUF006`` silences BG602. 88: a
# loop's stop may be an Event of the object (``while not self._stopped.is_set()``, set() by the
# canceller first), and a handler that ``continue``s follows the canceller's flag too (BG101). 89:
# Ctrl-C caught around a terminal prompt (knowledge.INTERACTIVE_INPUT_CALLS) is not reported (BG105).
# 90: a task whose ``cancel`` is handed to a handler is handed over; Ctrl-C or a cancellation caught in
# a loop that waits at a prompt, the project's input helpers too (ProjectIndex.prompting_functions),
# interrupts a REPL's turn (BG101, BG105). 91: a handler that falls through to code that always leaves the loop
# does not send it round again (BG101, BG104); a loop on `pending` from asyncio.wait() settles its tasks (BG101).
# 92: a closure's `nonlocal` loop flag that the enclosing function sets before it cancels (BG101).
# 93: BG101 keeps a handler of the running task's own cancellation (no task awaited, no flag set, no
# raise in some cases); the rest is BG105's. 94: a coroutine that awaits one task it handed over
# (not only every await of one) may raise that task's cancellation to its callers (BG101). 95: a task
# awaited under `if t.done():` is done: no stop arrives there (BG101, BG105). 96: summaries record
# each async function's awaited calls and whether a catch-all keeps their errors (awaited_io); BG602
# keeps the dropped tasks whose coroutine's library I/O fails unseen, BG606 the rest. 97: a folder
# without __init__.py inside a package is a namespace package of it (module names change); a library
# object's method is a library call for BG602 whatever the project names its own functions. 98:
# BG201 does not follow a coroutine a job starts as a task of its own (reached_from). 99: the
# Django admin's methods run in its views' transaction (BG604). 100: BG201 leaves out only the
# coroutine argument of a task start, and never a task group's tasks (its block waits for them).
# 101: Django model-signal receivers and forms the admin or a platform's edit views save run in a
# transaction (BG604; framework_hooks). 102: summaries record items stored by constant keys
# (``DATABASES["default"]["ATOMIC_REQUESTS"] = True``) among attr_assignments; Django and DRF editing
# views under ATOMIC_REQUESTS save their models in its transaction. 103: --verbose says why a
# model-signal receiver is left out (receivers_left_out). 104: a lock's TTL handed through a
# parameter no caller passes is no TTL (BG502; locks._ttl_through_arguments).
# 105: a call argument naming a method of an object bgcheck cannot type is kept as written
# ("?plugin.update"), for job discovery; Airflow's PythonOperator calls are recorded. 106: a
# lambda argument whose body is a call is kept as ("lambda", the call). 107: BG604 reads a session a
# caller commits after calling the function (TransactionModel.committed_by_callers). 108: Python 2
# and six.moves module names are Python 3's (ProjectIndex.canonical: knowledge.PYTHON2_MODULES). 109:
# BG304 takes a retry loop whose handler re-raises on a path, and appendleft(), as keeping the item.
# 110: BG404 notes where handlers for other signals only are installed (ShutdownModel.other_signals).
# 111: self attributes resolve ``self`` as the class's instance and set aside objects handed in
#      (``client or Client()``); BG203 reads a timeout bound to None on a path, and reports in child processes.
# 112: DATABASES set on a parameter is recorded among attr_assignments as "?param.DATABASES" (ATOMIC_REQUESTS
#      in the DATABASES a settings function sets on the settings object it is handed).
ENTRY_FORMAT = 112
# An entry larger than this is not read (nor written): reading costs memory in proportion.
MAX_ENTRY_BYTES = 64 * 1024 * 1024
# Entries are opened without following a symbolic link, and without blocking on a FIFO.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_MISSING = object()


class Cache:
    def __init__(self, directory: Path) -> None:
        self.root = Path(directory)
        self.version = version_tag()
        self.base = self.root / self.version
        self.hits = 0
        self.misses = 0
        self._ready = False
        self._folders: set = set()  # folders known to be real folders (not links) inside the cache

    def prepare(self) -> None:
        """Make the cache folder, marked as a cache (.gitignore, CACHEDIR.TAG), if it is not yet."""
        if self._ready:
            return
        self.root.mkdir(parents=True, exist_ok=True)
        self._real_folder(self.base)
        ignore = self.root / ".gitignore"
        if not ignore.exists():
            _atomic_write(ignore, b"# Created by bgcheck: this folder is a cache.\n*\n")
        tag = self.root / "CACHEDIR.TAG"
        if not tag.exists():
            _atomic_write(tag, b"Signature: 8a477f597d28d172789f06886806bc55\n# bgcheck cache\n")
        self._ready = True

    def _real_folder(self, folder: Path) -> None:
        """Make ``folder`` (one level below a checked one) or check that it is a real folder:
        never write through a link a repository committed inside its cache."""
        if folder in self._folders:
            return
        try:
            folder.mkdir()
        except FileExistsError:
            pass
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            raise NotADirectoryError(f"{folder} is not a folder")
        self._folders.add(folder)

    def _path(self, kind: str, key: str) -> Path:
        return self.base / kind / key[:2] / f"{key}.json"

    def _header(self, kind: str, key: str) -> bytes:
        return f"bgcheck-cache {ENTRY_FORMAT} {self.version} {kind} {key}\n".encode("utf-8", "surrogateescape")

    def has_kind(self, kind: str) -> bool:
        """Has any entry of this kind ever been written (a first run has none)?"""
        return (self.base / kind).is_dir()

    def has(self, kind: str, key: str) -> bool:
        """Is there an entry (not read, so not checked)? A cheap test before choosing how to run."""
        return self._path(kind, key).is_file()

    def get(self, kind: str, key: str, counted: bool = True) -> Any:
        """The stored value, or ``None`` when absent or not exactly an entry of this kind, key,
        format and version (read as JSON, every field checked: see serial.py). ``counted``:
        whether ``hits`` and ``misses`` count it (the file states, load/file_states.py, are not a
        result the run would otherwise compute)."""
        value = _MISSING
        try:
            path = self._path(kind, key)
            value = MEMORY.get(path, kind) if MEMORY is not None else _MISSING
            if value is _MISSING:
                decode = serial.ENTRY_CODECS[kind][1]
                data, signature = _read_entry(path)
                header = self._header(kind, key)
                if data is not None and data.startswith(header):
                    value = decode(json.loads(data[len(header):]))
                    if MEMORY is not None:
                        MEMORY.keep(path, kind, signature, len(data), value)
        except Exception:  # missing, corrupt, truncated, a folder, of another shape: ignore and rewrite
            value = _MISSING
        if value is _MISSING:
            self.misses += counted
            return None
        self.hits += counted
        return value

    def discard(self) -> None:
        """Count the value ``get`` just returned as a miss: the caller found it unusable
        and rewrites it with ``put``."""
        self.hits -= 1
        self.misses += 1

    def put(self, kind: str, key: str, value: Any) -> None:
        try:
            encode = serial.ENTRY_CODECS[kind][0]
            data = self._header(kind, key) + serial.dumps(encode(value))
            if len(data) > MAX_ENTRY_BYTES:
                return  # it would not be read back
            self.prepare()
            path = self._path(kind, key)
            self._real_folder(path.parent.parent)
            self._real_folder(path.parent)
            if path.is_dir() and not path.is_symlink():
                import shutil  # (only here: start-up)

                shutil.rmtree(path)  # a folder where the entry should be: cannot be replaced otherwise
            _atomic_write(path, data)
            if MEMORY is not None and kind in KEPT_AS_PUT:
                MEMORY.keep(path, kind, _signature(os.lstat(path)), len(data), value)
        except Exception:  # unwritable folder, full disk, a value of the wrong shape: the cache only costs time
            pass


def _read_entry(path: Path) -> tuple[Optional[bytes], tuple]:
    """An entry's bytes (None for anything but a regular file within the size limit) and the
    signature of the file read (``_signature``)."""
    fd = os.open(path, _OPEN_FLAGS)
    with open(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            return None, ()
        data = handle.read(MAX_ENTRY_BYTES + 1)
    return (data if len(data) <= MAX_ENTRY_BYTES else None), _signature(info)


def _signature(info: os.stat_result) -> tuple:
    """Which file an entry is: an atomic write (a rename) makes another inode, and a file
    rewritten in place another size or time."""
    return (info.st_ino, info.st_dev, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


# Kinds whose decoded values no caller changes, kept in memory by the check server (the caller
# that reads an entry copies what it changes; tests/test_cache.py holds them to it). Summaries
# (mutable dataclasses) are read again from their entries.
KEPT_KINDS = frozenset({"digests", "results", "bundles", "states", "interfaces", "warnings", "models", "recent"})
# Of those, the kinds whose value, once written, its writer no longer changes: kept as written,
# so the next run does not decode the entry it just wrote.
KEPT_AS_PUT = frozenset({"digests", "results", "bundles", "states", "recent"})


class Memory:
    """Decoded entries kept in memory, bounded by the size of their files (``limit`` bytes,
    the least recently used dropped first); an entry is served from memory only while its file
    is the one read (``_signature``). Only the check server (bgcheck/server.py) keeps one: a
    run in its own process reads each entry once anyway."""

    def __init__(self, limit: int) -> None:
        from collections import OrderedDict

        self.limit = limit
        self.size = 0
        self.entries: OrderedDict = OrderedDict()  # path -> (signature, size, value)

    def get(self, path: Path, kind: str) -> Any:
        found = self.entries.get(path)
        if found is None:
            return _MISSING
        try:
            current = _signature(os.lstat(path))
        except OSError:
            current = None
        if current != found[0]:
            self.drop(path)
            return _MISSING
        self.entries.move_to_end(path)
        return found[2]

    def keep(self, path: Path, kind: str, signature: tuple, size: int, value: Any) -> None:
        if kind not in KEPT_KINDS or not signature or size > self.limit // 4:
            return
        self.drop(path)
        self.entries[path] = (signature, size, value)
        self.size += size
        while self.size > self.limit:
            _path, (_signature_, dropped, _value) = self.entries.popitem(last=False)
            self.size -= dropped

    def drop(self, path: Path) -> None:
        found = self.entries.pop(path, None)
        if found is not None:
            self.size -= found[1]


# Set by the check server: its runs share one Memory.
MEMORY: Optional[Memory] = None


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _new_temporary(path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _new_temporary(folder: Path) -> tuple[int, str]:
    """A new file in ``folder``, open for writing, that no other process or thread writes: what
    ``tempfile.mkstemp`` gives, without its import (random, hashing) on every warm run. O_EXCL:
    never a file or link that is there already."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    for attempt in range(10_000):
        name = os.path.join(folder, f".tmp-{os.getpid()}-{threading.get_ident()}-{attempt}")
        try:
            return os.open(name, flags, 0o600), name
        except FileExistsError:  # left by a process that had this pid: the next name
            continue
    raise FileExistsError(f"no temporary name is free in {folder}")


def open_cache(config, cache_dir: Optional[Path], enabled: bool) -> Optional[Cache]:
    folder = cache_folder(config.root, config.in_project, cache_dir) if enabled else None
    return Cache(folder) if folder is not None else None
