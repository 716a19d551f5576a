"""Framework knowledge, as data.

Every fact a rule needs about a library (which exception means
cancellation, which decorator makes a Celery task, which setting holds a
soft time limit) lives here, keyed by qualified name as the project index
resolves it. Adding a library should mean adding rows here, not a visitor.

Naming convention: ``pkg.Class()`` stands for "an instance of pkg.Class",
so ``celery.Celery().task`` is the ``task`` method of any Celery app.
Every fact is the library's documented behaviour (or, where the documentation
is silent, its source); a short comment by a table says why it is there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Optional

# --- calls that run a function given to them ----------------------------------

# ``functools.partial(f, ...)`` is ``f`` with arguments bound: what runs is ``f``.
PARTIALS = frozenset({"functools.partial"})
# ``asyncio.to_thread(f, ...)`` runs ``f`` in a worker thread (BG601: what the task runs is ``f``).
THREAD_RUNNERS = frozenset({"asyncio.to_thread", "asyncio.threads.to_thread"})

# --- instances made by factories --------------------------------------------

# Calls that import what a dotted path names (``import_string("proj.celery.app")``): with a
# constant path written in the project, the result is that object (a Celery app built elsewhere).
IMPORT_BY_PATH = frozenset(
    {"django.utils.module_loading.import_string", "werkzeug.utils.import_string",
     "celery.utils.imports.symbol_by_name", "kombu.utils.imports.symbol_by_name"}
)
# The path by keyword: Django's ``import_string(dotted_path=...)``, werkzeug's ``import_name=``,
# celery's and kombu's ``symbol_by_name(name=...)``.
IMPORT_PATH_KEYWORDS = ("dotted_path", "import_name", "name")

# Python 2 names of standard modules, and six's ``six.moves`` names for them, with the Python 3
# module they are (the same classes and functions): ``Queue.Queue()`` is a ``queue.Queue()``,
# ``six.moves.urllib.request.urlopen`` is ``urllib.request.urlopen``. The index rewrites these
# prefixes when it canonicalises, unless the project has a top-level module of that name.
PYTHON2_MODULES: dict[str, str] = {
    "Queue": "queue",
    "urllib2": "urllib.request",
    "httplib": "http.client",
    "SocketServer": "socketserver",
    "xmlrpclib": "xmlrpc.client",
    "six.moves.queue": "queue",
    "six.moves._thread": "_thread",
    "six.moves.http_client": "http.client",
    "six.moves.socketserver": "socketserver",
    "six.moves.xmlrpc_client": "xmlrpc.client",
    "six.moves.urllib.request": "urllib.request",
    "six.moves.urllib.parse": "urllib.parse",
    "six.moves.urllib.error": "urllib.error",
    "six.moves.configparser": "configparser",
    "six.moves.builtins": "builtins",
}

# Calls that return an instance of a known class: ``redis.from_url(...)`` is a
# ``redis.Redis()``. The index rewrites these prefixes when it canonicalises.
FACTORY_INSTANCES: dict[str, str] = {
    "redis.from_url()": "redis.Redis()",
    "redis.Redis.from_url()": "redis.Redis()",
    "redis.StrictRedis.from_url()": "redis.Redis()",
    "redis.client.Redis.from_url()": "redis.Redis()",
    "redis.client.StrictRedis.from_url()": "redis.Redis()",
    "redis.asyncio.from_url()": "redis.asyncio.Redis()",
    "redis.asyncio.Redis.from_url()": "redis.asyncio.Redis()",
    # aioredis 2, the asyncio client that became redis.asyncio: the same API
    "aioredis.from_url()": "redis.asyncio.Redis()",
    "aioredis.Redis.from_url()": "redis.asyncio.Redis()",
    "aioredis.client.Redis.from_url()": "redis.asyncio.Redis()",
    "aioredis.Redis()": "redis.asyncio.Redis()",
    "aioredis.client.Redis()": "redis.asyncio.Redis()",
    "redis.Redis.from_pool()": "redis.Redis()",
    "django_redis.get_redis_connection()": "redis.Redis()",
    # django-rq's queue getters return an RQ queue: ``get_queue("default").enqueue(f)`` is RQ's enqueue
    "django_rq.get_queue()": "rq.Queue()",
    "django_rq.queues.get_queue()": "rq.Queue()",
    "asyncio.get_running_loop()": "asyncio.get_event_loop()",
    "asyncio.new_event_loop()": "asyncio.get_event_loop()",
    "asyncio.AbstractEventLoop()": "asyncio.get_event_loop()",  # ``loop: asyncio.AbstractEventLoop``
    "asyncio.events.AbstractEventLoop()": "asyncio.get_event_loop()",
    # tasks and futures: what create_task / submit / run_in_executor return
    "asyncio.create_task()": "asyncio.Task()",
    "asyncio.tasks.create_task()": "asyncio.Task()",
    "asyncio.ensure_future()": "asyncio.Future()",
    "asyncio.tasks.ensure_future()": "asyncio.Future()",
    "asyncio.get_event_loop().create_task()": "asyncio.Task()",
    "asyncio.get_event_loop().run_in_executor()": "asyncio.Future()",
    "asyncio.TaskGroup().create_task()": "asyncio.Task()",
    "asyncio.taskgroups.TaskGroup().create_task()": "asyncio.Task()",
    "concurrent.futures.ThreadPoolExecutor().submit()": "concurrent.futures.Future()",
    "concurrent.futures.ProcessPoolExecutor().submit()": "concurrent.futures.Future()",
    "concurrent.futures.thread.ThreadPoolExecutor().submit()": "concurrent.futures.Future()",
    "concurrent.futures.process.ProcessPoolExecutor().submit()": "concurrent.futures.Future()",
}

# --- receiver types -----------------------------------------------------------
#
# Library classes whose methods rules match on a receiver (``pool.submit``,
# ``q.get``, ``t.join``, ``fut.result``), and what each is. The index gives a
# receiver one of these types only when it knows it: from an assignment, a
# ``with ... as``, an annotation, a project factory's return, a partial; a
# project class that derives from one and does not define the method itself
# gets the library's method. A project class that only has a suggestive name
# (``JobExecutor.submit``) is not one of these, and an unknown receiver matches
# nothing (``--verbose`` says so for the methods in RECEIVER_NOTE_METHODS).
RECEIVER_APIS: dict[str, str] = {
    "concurrent.futures.ThreadPoolExecutor": "executor",
    "concurrent.futures.ProcessPoolExecutor": "executor",
    "concurrent.futures.thread.ThreadPoolExecutor": "executor",
    "concurrent.futures.process.ProcessPoolExecutor": "executor",
    "concurrent.futures.Executor": "executor",
    "concurrent.futures.Future": "future",
    "asyncio.Future": "future",
    "asyncio.Task": "task",
    "threading.Thread": "thread",
    "multiprocessing.Process": "process",
    "multiprocessing.context.Process": "process",
    "multiprocessing.get_context().Process": "process",
    "multiprocessing.Pool": "pool",
    "multiprocessing.get_context().Pool": "pool",
    "multiprocessing.Queue": "queue",
    "multiprocessing.JoinableQueue": "queue",
    "multiprocessing.get_context().Queue": "queue",
    "multiprocessing.get_context().JoinableQueue": "queue",
    "queue.Queue": "queue",
    "queue.LifoQueue": "queue",
    "queue.PriorityQueue": "queue",
    "queue.SimpleQueue": "queue",
    "asyncio.Queue": "queue",
    "asyncio.LifoQueue": "queue",
    "asyncio.PriorityQueue": "queue",
    "multiprocessing.pool.Pool": "pool",
    "multiprocessing.pool.ThreadPool": "pool",
    "redis.Redis": "redis client",
    "redis.StrictRedis": "redis client",
    "redis.client.Redis": "redis client",
    "redis.asyncio.Redis": "redis client",
    "asyncio.get_event_loop": "event loop",  # every loop getter and AbstractEventLoop end up as this (FACTORY_INSTANCES)
    "asyncio.TaskGroup": "task group",
    "asyncio.taskgroups.TaskGroup": "task group",
    "anyio.create_task_group": "task group",
    "trio.open_nursery": "task group",
    # ``class Celery(celery.Celery)`` in the project: its ``app.task`` registers tasks as Celery's does
    "celery.Celery": "celery app",
    "celery.app.Celery": "celery app",
    "celery.app.base.Celery": "celery app",
}
# Methods whose receiver --verbose reports when its type is unknown (the rule that would have looked).
RECEIVER_NOTE_METHODS: dict[str, str] = {
    "submit": "BG303/BG601/BG605",
    "run_in_executor": "BG303/BG601/BG605",
    "shutdown": "BG402/BG405",
}
# Methods that put an item into a queue (recorded in the summary for BG301/BG304/BG203).
QUEUE_PUT_METHODS = frozenset({"put", "put_nowait"})
# Methods that take an item off a queue (BG203: a queue polled with ``empty()`` and never read is a signal).
QUEUE_GET_METHODS = frozenset({"get", "get_nowait"})
# A drain loop (BG301): a take that never waits (``get_nowait()``, or ``get`` with ``block=False`` as
# its keyword or first argument, as ``queue.Queue.get`` spells it), in a ``try`` whose handler of the
# queue's empty exception leaves the loop. The loop runs once per item that queue holds now.
NON_BLOCKING_TAKES = frozenset({"get_nowait"})
NON_BLOCKING_TAKE_FLAGS = {"get": ("block", 0)}
QUEUE_EMPTY_EXCEPTIONS = frozenset({"queue.Empty", "_queue.Empty", "asyncio.QueueEmpty", "asyncio.queues.QueueEmpty", "multiprocessing.queues.Empty"})
# A queue's own count of the items it holds (BG301: a producer loop that tests it before it puts
# fills up to a bound). ``full()`` is not one: a queue with no maxsize is never full.
QUEUE_SIZE_METHODS = frozenset({"qsize"})
# Clock readings: a polling loop whose condition compares one is bounded by it (BG203).
CLOCK_CALLS = frozenset(
    {"time.time", "time.monotonic", "time.perf_counter", "time.time_ns", "time.monotonic_ns", "time.perf_counter_ns", "datetime.datetime.now", "datetime.datetime.utcnow"}
)
# What ``join()`` waits for (BG405): a receiver known to be one of these.
JOINABLE_KINDS = frozenset({"thread", "process", "pool", "queue"})

# --- cancellation (BG101) ---------------------------------------------------

# Exception classes that carry a stop request. Value: how to describe it. Not InterruptedError:
# since PEP 475 the interpreter retries a system call a signal interrupts, and a signal handler
# that wants to stop raises its own exception, so catching InterruptedError swallows no stop
# (kazoo's retry helpers raise a class of that name for their own abort, decided elsewhere).
CANCELLATION_EXCEPTIONS: dict[str, str] = {
    "asyncio.CancelledError": "asyncio.CancelledError",
    "asyncio.exceptions.CancelledError": "asyncio.CancelledError",
    "concurrent.futures.CancelledError": "concurrent.futures.CancelledError",
    "concurrent.futures._base.CancelledError": "concurrent.futures.CancelledError",
    "trio.Cancelled": "trio.Cancelled",
    "trio._core._exceptions.Cancelled": "trio.Cancelled",
    "KeyboardInterrupt": "KeyboardInterrupt",
    "SystemExit": "SystemExit",
    "builtins.KeyboardInterrupt": "KeyboardInterrupt",
    "builtins.SystemExit": "SystemExit",
}

# Calls that return the running backend's cancellation class:
# ``except anyio.get_cancelled_exc_class():``.
CANCELLATION_CLASS_FACTORIES: dict[str, str] = {
    "anyio.get_cancelled_exc_class": "anyio's cancellation exception",
}

# concurrent.futures' CancelledError is never a stop request to the code that catches it: it is an
# Exception, and since Python 3.8 neither asyncio's CancelledError (a BaseException) nor a base of it,
# so a task's own cancellation is never one; it is how a future that was cancelled reports its
# outcome when read (``future.result()``, ``future.exception()``). BG101 reports it only where it
# counts that cancelled work as a result.
FUTURE_CANCELLATION = "concurrent.futures.CancelledError"
FUTURE_OUTCOME_READS = frozenset({"result", "exception"})

# State tests of asyncio's and threading's Event and of futures: a handler that swallows a
# cancellation only when one of them says the work was asked to stop (``if stopper.done():
# return``) and re-raises every other one tells its own stop from the others (BG101, BG102).
STOP_STATE_TESTS = frozenset({"is_set", "done", "cancelled"})
# Calls that wait for the user at a terminal prompt. Ctrl-C there is the user cancelling the input, and
# a REPL that catches KeyboardInterrupt around its prompt and goes back to it is a shell's idiom,
# not a stop swallowed (BG105): prompt_toolkit turns the keypress into KeyboardInterrupt itself.
INTERACTIVE_INPUT_CALLS = frozenset({
    "input", "builtins.input", "getpass.getpass",
    "prompt_toolkit.prompt", "prompt_toolkit.shortcuts.prompt",
    "prompt_toolkit.PromptSession().prompt", "prompt_toolkit.PromptSession().prompt_async",
    "prompt_toolkit.shortcuts.PromptSession().prompt", "prompt_toolkit.shortcuts.PromptSession().prompt_async",
    "click.prompt", "click.confirm", "click.getchar", "typer.prompt", "typer.confirm",
    "rich.prompt.Prompt.ask", "rich.prompt.Confirm.ask", "rich.prompt.IntPrompt.ask", "rich.prompt.FloatPrompt.ask",
    "rich.console.Console().input",
})

# An Event's state test and the call that makes it true: a loop on ``not self._stopped.is_set()``
# ends once another method calls ``self._stopped.set()`` (asyncio's and threading's Event).
EVENT_SETTERS = {"is_set": "set", "isSet": "set"}

# The running task (``asyncio.current_task()``): its ``cancelling()`` (Python 3.11+) counts the
# cancellations requested of it and not yet undone, so a handler that re-raises when it is non-zero
# re-raises every cancellation of the running task and swallows only an awaited future's own.
CURRENT_TASK_CALLS = frozenset({"asyncio.current_task", "asyncio.tasks.current_task"})
# Calls that make a task of a coroutine, and the method of an event loop or a task group that
# does too: a coroutine that awaits a task it made and handed to someone else
# may get that task's cancellation, not its own (ast_flow.handed_tasks; BG101).
TASK_MAKING_CALLS = frozenset({"asyncio.create_task", "asyncio.tasks.create_task", "asyncio.ensure_future", "asyncio.tasks.ensure_future"})
TASK_MAKING_METHOD = "create_task"  # of an event loop or a task group
CANCELLING_METHOD = "cancelling"
# ``uncancel()`` undoes one cancellation request of the task: how code that suppresses a
# cancellation on purpose says so (asyncio.timeout() does), keeping ``cancelling()`` right.
UNCANCEL_METHOD = "uncancel"
# ``cancel()`` of the running task in a handler of its cancellation asks for the stop again: it is
# moved to the task's next suspension point, not lost.
CANCEL_METHOD = "cancel"

# Process-level interrupts: catching them at the top of a program, around
# main(), and then exiting is the normal way to end on Ctrl-C.
PROCESS_INTERRUPTS = frozenset({"KeyboardInterrupt", "SystemExit"})


# Awaiting a future that is already done does not suspend (BG101, BG102, BG103): no cancellation
# of the awaiting task can arrive there. Calls whose result's first item is the set of finished
# futures (``done, pending = await asyncio.wait(...)``), and the Future method that runs a
# callback once a future is done (its argument is then a finished task).
DONE_SET_WAITS = frozenset({"asyncio.wait", "asyncio.tasks.wait"})
DONE_CALLBACK_REGISTRATION = "add_done_callback"
# Waits that hand back the outcome of the task they are given (its cancellation too): BG101's
# ``if not t.cancelled(): raise`` protocol around ``await asyncio.shield(t)``.
# ``asyncio.shield(work)``: a loop that awaits it through every cancellation (``while not
# t.done(): try: await asyncio.shield(t) except CancelledError: ...``) waits for its cleanup to
# finish; it is not the work going on (BG101 leaves it to BG105).
SHIELD_CALLS = frozenset({"asyncio.shield", "asyncio.tasks.shield"})
TASK_PASS_THROUGH_WAITS = frozenset({"asyncio.shield", "asyncio.tasks.shield", "asyncio.wait_for", "asyncio.tasks.wait_for"})
# asyncio.wait_for, and what it raises on a timeout (the builtin from Python 3.11, asyncio's own
# before): once raised, the future it waited for is cancelled and done (it waits for the
# cancellation it makes), so awaiting that future in the handler suspends nowhere (BG101, BG105).
WAIT_FOR_CALLS = frozenset({"asyncio.wait_for", "asyncio.tasks.wait_for"})
WAIT_FOR_TIMEOUT_ERRORS = frozenset({"TimeoutError", "builtins.TimeoutError", "asyncio.TimeoutError", "asyncio.exceptions.TimeoutError"})

# --- broad handlers (BG102, BG104) -----------------------------------------

BASE_EXCEPTION = frozenset({"BaseException", "builtins.BaseException"})
EXCEPTION = frozenset({"Exception", "builtins.Exception"})

# Calls that end the process: a handler that makes one does not "carry on".
PROCESS_EXIT_CALLS = frozenset({"sys.exit", "os._exit", "os.abort", "exit", "quit", "builtins.exit", "builtins.quit"})
# Calls that raise SystemExit (os._exit and os.abort end the process without raising): where no
# signal handler of the project makes one, SystemExit reaches code only from such a call.
SYSTEM_EXIT_RAISERS = frozenset({"sys.exit", "exit", "quit", "builtins.exit", "builtins.quit", "SystemExit", "builtins.SystemExit"})

# Methods that always raise when called on ``self`` in a bound Celery task:
# ``self.retry(exc=exc)`` raises Retry even without ``raise`` in front.
RAISING_SELF_METHODS = frozenset({"retry"})

# --- Celery (BG104, and the job model) -------------------------------------

CELERY_APP_CLASSES = frozenset({"celery.Celery", "celery.app.Celery", "celery.app.base.Celery"})
# Methods only a Celery app has, which a project calls on its app as it builds it: an object the
# project makes from a class bgcheck cannot name (mayan's ``import_string(setting.value)(main=...)``)
# and then configures with one of these at import time is a Celery app, in a project that imports celery.
CELERY_APP_SETUP_METHODS = frozenset({"autodiscover_tasks", "config_from_object"})
# Library functions that return a configured Celery app: vstutils (the framework Polemarch is built
# on) ``get_celery_app()`` returns ``Celery(name, task_cls="vstutils.tasks:TaskClass")``, configured
# from the Django settings with its tasks autodiscovered (vstutils/environment.py).
CELERY_APP_FACTORIES = frozenset({"vstutils.environment.get_celery_app"})
# The app a process made current, used where the project holds no app of its own.
CELERY_CURRENT_APPS = frozenset({"celery.current_app", "celery.app.current_app", "celery._state.current_app"})
# The Celery apps of platforms that plugins register their tasks on (a pretix or pretalx plugin's
# ``from pretix.celery_app import app``; ``@app.task``), as each platform's source makes them.
PLATFORM_CELERY_APPS = frozenset({
    "pretix.celery_app.app",  # pretix: app = Celery('pretix')
    "pretalx.celery_app.app",  # pretalx: app = Celery("pretalx")
    "taiga.celery.app",  # taiga-back: app = Celery('taiga')
    "indico.core.celery.celery",  # Indico: celery = IndicoCelery('indico'), with periodic_task too
    "saleor.celeryconf.app",  # saleor: app = Celery("saleor")
    "weblate.utils.celery.app",  # Weblate: app = Celery("weblate")
    "nautobot.core.celery.app",  # Nautobot: app = NautobotCelery("nautobot")
})
# Decorators that turn a function into a Celery task.
CELERY_TASK_DECORATORS = frozenset(
    {f"{app}().task" for app in CELERY_APP_CLASSES}
    | {f"{app}.task" for app in CELERY_CURRENT_APPS | PLATFORM_CELERY_APPS}
    | {"indico.core.celery.celery.periodic_task"}
    | {"celery.shared_task", "celery.app.shared_task", "celery.app.task.shared_task"}
    # Celery 3's module-level decorators (celery.decorators: Celery 2's), gone in Celery 5 but
    # still in applications written for it
    | {f"{module}.{name}" for module in ("celery.task", "celery.decorators") for name in ("task", "periodic_task")}
)
CELERY_TASK_BASES = frozenset(
    {"celery.Task", "celery.app.task.Task", "celery.app.Task", "celery.task.Task", "celery.task.base.Task", "celery.task.PeriodicTask"}
)

# SoftTimeLimitExceeded derives from Exception (billiard), so ``except Exception`` eats it.
SOFT_TIME_LIMIT_EXCEPTIONS = frozenset(
    {"celery.exceptions.SoftTimeLimitExceeded", "billiard.exceptions.SoftTimeLimitExceeded"}
)

# Celery setting -> the names it is read under: the app's own (lowercase),
# the pre-4.0 uppercase name, and the Django ``CELERY_`` namespace form.
CELERY_SETTINGS: dict[str, tuple[str, ...]] = {
    "task_soft_time_limit": ("task_soft_time_limit", "CELERYD_TASK_SOFT_TIME_LIMIT"),
    "task_time_limit": ("task_time_limit", "CELERYD_TASK_TIME_LIMIT"),
    "task_acks_late": ("task_acks_late", "CELERY_ACKS_LATE"),
    "task_reject_on_worker_lost": ("task_reject_on_worker_lost", "CELERY_REJECT_ON_WORKER_LOST"),
    "beat_schedule": ("beat_schedule", "CELERYBEAT_SCHEDULE"),
}

# Job frameworks whose workers run a plain (synchronous) job where a deploy's stop never arrives as
# an exception (BG101, BG102: a handler can swallow only a stop that arrives as one):
# - Celery: a warm shutdown (the SIGTERM a deploy sends the worker's main process) lets the running
#   tasks finish and raises nothing in them, in every pool. Only a signal sent to the pool process
#   itself (a cold shutdown, ``revoke(terminate=True)``) raises there: billiard turns SIGTERM into
#   SystemExit so that ``finally`` blocks run as the process ends. The soft time limit raises an
#   ``Exception``, which BG104 is about;
# - RQ: a job runs in a forked work horse that ignores SIGINT and dies of SIGTERM (rq-scheduler and
#   RQ's cron only enqueue what such workers run);
# - Huey's default thread workers, APScheduler's thread and process pool executors: KeyboardInterrupt
#   and a signal handler's SystemExit arrive on the main thread only (thread targets and executor
#   work are worker-thread code to the execution model already);
# - multiprocessing: a deploy's SIGTERM ends a child process with no exception (the default
#   action), whether it reaches the whole group or the parent passes it on with terminate(); only
#   a terminal's Ctrl-C raises KeyboardInterrupt in every child of the group.
# Any other framework is taken to raise one: Dramatiq raises TimeLimitExceeded and Shutdown into its
# actors; `schedule` and django-extensions' runjobs run jobs on the main thread.
NO_STOP_EXCEPTION_FRAMEWORKS = frozenset(
    {"Celery", "Celery beat", "RQ", "rq-scheduler", "RQ cron", "Huey", "APScheduler", "Flask-APScheduler",
     "APScheduler 4", "Nautobot", "NetBox", "multiprocessing"}
)
# Jobs that run on the process's own threads and receive its stop only as the exceptions a signal
# raises on the main thread (KeyboardInterrupt for SIGINT, SystemExit from a handler that exits): an
# event loop's callbacks, in-process schedulers, a worker command's loop. Where the project's own
# signal handlers raise neither, nothing is raised into their plain (not async) functions.
SIGNAL_STOPPED_FRAMEWORKS = frozenset({"tornado", "asyncio", "schedule", "aiocron", "repeat_every", "repeat_at", "Django command"})

# Celery task options the job model records in a job's limits -> (the app setting that gives
# their default when a task does not set them, the kind of value: seconds or a boolean), in the
# order ``bgcheck jobs`` lists them.
CELERY_TASK_OPTIONS: dict[str, tuple[str, type]] = {
    "time_limit": ("task_time_limit", float),
    "soft_time_limit": ("task_soft_time_limit", float),
    "acks_late": ("task_acks_late", bool),
}

# --- the job model (bgcheck.model.jobs) ------------------------------------------
#
# A job source says how to recognise a job in a decorator or a call, by a
# regular expression over the canonical name of the decorator or the called
# function:
#   framework   what the user calls it ("APScheduler", "Celery", ...)
#   kind        "scheduled" | "queued" | "thread" | "in-process task"
#   func        where the job's function is: "decorated", ("arg", i, "kw")
#   schedule    how to read the schedule (a reader in bgcheck.model.jobs), or None
#   per_process True if every process (so every replica) that registers it
#               runs it: APScheduler, `schedule`, repeat_every; Celery beat,
#               rq-scheduler and the like run once per deployment.
#   limits      option name -> (limit name, factor to seconds)


@dataclass(frozen=True)
class JobSource:
    pattern: str
    framework: str
    kind: str
    func: object = "decorated"
    schedule: Optional[str] = None
    per_process: bool = False
    limits: tuple = ()
    periodic_option: Optional[str] = None  # an option that turns a queued task into a scheduled one
    name_options: tuple = ()  # options that name the job (``add_job(f, id="x")``); others may be the function's own kwargs
    name_pos: Optional[int] = None  # positional index of the job's id, when it can be passed so
    # Matched by method name on any receiver (``x.submit(f)``): a job only when ``f`` is a project function.
    any_receiver: bool = False
    awaitable: bool = False  # the function argument is a coroutine object, as in WorkStart
    # A decorator that takes classes too: the method its workers run on an instance of the class
    # (dispatcherd's ``@task`` on ``class RunJob``: ``RunJob().run(*args)``).
    class_runs: Optional[str] = None

    @property
    def regex(self) -> "re.Pattern[str]":
        return _compiled(self.pattern)


@lru_cache(maxsize=None)
def _compiled(pattern: str) -> "re.Pattern[str]":
    return re.compile(pattern)


class LazyPattern:
    """``re.compile(pattern, flags)``, compiled on first use. The tables hold dozens of patterns
    and a run that checks one file uses a few: compiling all of them at import was a tenth of
    bgcheck's start-up. After the first use the compiled pattern's methods are this object's own
    attributes (no extra call per match)."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern, self.flags = pattern, flags

    def __getattr__(self, name: str):  # only for what is not set yet: the first use
        compiled = re.compile(self.pattern, self.flags)
        for method in ("match", "fullmatch", "search", "finditer", "findall", "sub", "split"):
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r}, {self.flags!r})"


_APS3_SCHEDULER = r"apscheduler\.schedulers\.[\w.]*Scheduler\(\)|apscheduler\.schedulers\.base\.BaseScheduler\(\)"
_APS_LIMITS = (("max_instances", "max_instances", 1.0), ("misfire_grace_time", "misfire_grace_time", 1.0))
_CELERY_LIMITS = tuple((option, option, None if kind is bool else 1.0) for option, (_setting, kind) in CELERY_TASK_OPTIONS.items())
_HUEY_APP = r"huey(\.api)?\.\w*Huey\(\)"
_DISPATCHERD = r"(dispatcherd|ansible_dispatcher)"

JOB_DECORATORS: tuple[JobSource, ...] = (
    JobSource(r"(" + "|".join(re.escape(d) for d in sorted(CELERY_TASK_DECORATORS)) + r")$", "Celery", "queued", limits=_CELERY_LIMITS),
    JobSource(rf"({_APS3_SCHEDULER})\.scheduled_job$", "APScheduler", "scheduled", schedule="apscheduler", per_process=True, limits=_APS_LIMITS),
    JobSource(r"flask_apscheduler(\.scheduler)?\.APScheduler\(\)\.task$", "Flask-APScheduler", "scheduled", schedule="apscheduler", per_process=True, limits=_APS_LIMITS),
    JobSource(
        r"dramatiq(\.actor)?\.actor$", "Dramatiq", "queued", limits=(("time_limit", "time_limit", 0.001),), periodic_option="periodic"
    ),
    JobSource(rf"({_HUEY_APP}\.task|huey\.contrib\.djhuey\.(task|db_task))$", "Huey", "queued", limits=(("timeout", "timeout", 1.0),)),
    JobSource(
        rf"({_HUEY_APP}\.periodic_task|huey\.contrib\.djhuey\.(periodic_task|db_periodic_task))$",
        "Huey",
        "scheduled",
        schedule="crontab-arg",
        per_process=True,
        limits=(("timeout", "timeout", 1.0),),
    ),
    JobSource(r"(fastapi_utils\.tasks|fastapi_utilities(\.repeat\.repeat_every)?)\.repeat_every$", "repeat_every", "scheduled", schedule="seconds-kw", per_process=True),
    JobSource(r"fastapi_utilities(\.repeat\.repeat_at)?\.repeat_at$", "repeat_at", "scheduled", schedule="cron-kw", per_process=True),
    JobSource(r"aiocron\.crontab$", "aiocron", "scheduled", schedule="cron-arg", per_process=True),
    JobSource(r"schedule\.repeat$", "schedule", "scheduled", schedule="schedule-arg", per_process=True),
    JobSource(r"rq(\.decorators)?\.job$", "RQ", "queued", limits=(("timeout", "job_timeout", 1.0),)),
    # django-rq's ``@job("default")`` is RQ's decorator with the queue looked up in the settings
    JobSource(r"django_rq(\.decorators)?\.job$", "RQ", "queued", limits=(("timeout", "job_timeout", 1.0),)),
    # dispatcherd (AWX's dispatcher, split out): ``@task(queue="...")`` registers the function for its workers
    JobSource(rf"{_DISPATCHERD}\.publish\.task$", "dispatcherd", "queued", limits=(("timeout", "timeout", 1.0),), class_runs="run"),
    # Airflow's TaskFlow ``@task`` (``@task.python``, ``@task.virtualenv``...): a worker runs the function
    JobSource(r"airflow\.(decorators|sdk)\.task(\.\w+)?$", "Airflow", "queued"),
)

JOB_CALLS: tuple[JobSource, ...] = (
    JobSource(rf"({_APS3_SCHEDULER})\.add_job$", "APScheduler", "scheduled", ("arg", 0, "func"), "apscheduler", True, _APS_LIMITS, name_options=("name", "id")),
    JobSource(r"apscheduler(\.\w+)*\.(Async)?Scheduler\(\)\.add_schedule$", "APScheduler 4", "scheduled", ("arg", 0, "func_or_task_id"), "apscheduler", True, name_options=("id",)),
    JobSource(r"flask_apscheduler(\.scheduler)?\.APScheduler\(\)\.add_job$", "Flask-APScheduler", "scheduled", ("arg", 1, "func"), "apscheduler", True, _APS_LIMITS, name_options=("id",), name_pos=0),
    JobSource(r"(^|.*\.)add_periodic_task$", "Celery beat", "scheduled", ("arg", 1, "sig"), "celery-arg", False),
    JobSource(r"rq(\.queue)?\.Queue\(\)\.enqueue$", "RQ", "queued", ("arg", 0, "f"), None, False, (("job_timeout", "job_timeout", 1.0),)),
    # ``enqueue_call(func, args, kwargs, timeout=...)``: its own parameter names
    JobSource(r"rq(\.queue)?\.Queue\(\)\.enqueue_call$", "RQ", "queued", ("arg", 0, "func"), None, False, (("timeout", "job_timeout", 1.0),)),
    JobSource(r"rq(\.queue)?\.Queue\(\)\.(enqueue_in|enqueue_at)$", "RQ", "queued", ("arg", 1, "f"), None, False, (("job_timeout", "job_timeout", 1.0),)),
    JobSource(r"rq\.cron\.register$", "RQ cron", "scheduled", ("arg", 0, "func"), "rq-cron", False, (("job_timeout", "job_timeout", 1.0),)),
    JobSource(r"rq_scheduler(\.scheduler)?\.Scheduler\(\)\.schedule$", "rq-scheduler", "scheduled", ("arg", 1, "func"), "interval-kw", False, (("timeout", "timeout", 1.0),), name_options=("id",)),
    JobSource(r"rq_scheduler(\.scheduler)?\.Scheduler\(\)\.cron$", "rq-scheduler", "scheduled", ("arg", 1, "func"), "cron-arg", False, (("timeout", "timeout", 1.0),), name_options=("id",)),
    JobSource(r"rq_scheduler(\.scheduler)?\.Scheduler\(\)\.(enqueue_in|enqueue_at)$", "rq-scheduler", "queued", ("arg", 1, "func")),
    JobSource(r"schedule(\.Scheduler\(\))?\.every\(\)(\.\w+(\(\))?)*\.do$", "schedule", "scheduled", ("arg", 0, "job_func"), "schedule-chain", True),
    JobSource(r"django_q\.tasks\.schedule$", "django-q", "scheduled", ("arg", 0, "func"), "django-q", False, name_options=("name",)),
    JobSource(r"django_q\.models\.Schedule\.objects\.create$", "django-q", "scheduled", ("kw", None, "func"), "django-q", False, name_options=("name",)),
    JobSource(r"django_q\.tasks\.async_task$", "django-q", "queued", ("arg", 0, "func")),
    # ``AsyncTask(func, *args, **kwargs).run()``: the task is made with its function, then queued
    JobSource(r"django_q\.tasks\.AsyncTask$", "django-q", "queued", ("arg", 0, "func")),
    JobSource(r"aiocron\.crontab$", "aiocron", "scheduled", ("arg", 1, "func"), "cron-arg", True),
    JobSource(r"django_rq(\.queues)?\.enqueue$", "RQ", "queued", ("arg", 0, "func")),
    # dispatcherd: the registry its ``@task`` fills (a project decorator may call it), and submit_task(f)
    JobSource(rf"{_DISPATCHERD}\.registry\.(registry|DispatcherMethodRegistry\(\))\.register$", "dispatcherd", "queued", ("arg", 0, "fn")),
    JobSource(rf"{_DISPATCHERD}\.publish\.submit_task$", "dispatcherd", "queued", ("arg", 0, "fn")),
    # frappe's ``enqueue("app.module.method", queue="long")``: a dotted path or the function itself
    JobSource(r"frappe(\.utils\.background_jobs)?\.enqueue$", "frappe", "queued", ("arg", 0, "method"), None, False, (("timeout", "timeout", 1.0),)),
    # pulpcore's ``dispatch(func, args=..., kwargs=..., exclusive_resources=[...])`` (and ``adispatch``): a Task row
    # its workers pick up; plugins import it from pulpcore.plugin.tasking
    JobSource(r"pulpcore(\.plugin\.tasking|\.tasking\.tasks)\.a?dispatch$", "pulpcore", "queued", ("arg", 0, "func")),
    # CKAN's ``toolkit.enqueue_job(fn, args, kwargs, title, queue, rq_kwargs)`` (ckan.lib.jobs.enqueue):
    # an RQ job that ``ckan jobs worker`` runs; extensions import it from ckan.plugins.toolkit
    JobSource(r"ckan\.plugins\.toolkit\.enqueue_job$|ckan\.lib\.jobs\.enqueue$", "RQ", "queued", ("arg", 0, "fn")),
    # Airflow's ``PythonOperator(task_id=..., python_callable=f)``: a worker runs ``f``
    JobSource(r"airflow(\.providers\.standard)?\.operators\.python(_operator)?\.(PythonOperator|BranchPythonOperator|ShortCircuitOperator)$",
              "Airflow", "queued", ("kw", None, "python_callable")),
)
# Threads, tasks and pool submissions are jobs too: ``JOB_CALLS`` ends with the rows of
# ``WORK_STARTS`` (below) that name a job framework.

# Sources of jobs that are not a decorator or a call: a Celery Task subclass with run(), a Thread
# subclass with run(), arq's WorkerSettings.functions and cron_jobs, a beat_schedule entry.
CELERY_TASK_SOURCE = JOB_DECORATORS[0]
assert CELERY_TASK_SOURCE.framework == "Celery"
THREAD_SUBCLASS_SOURCE = JobSource("", "threading", "thread")
PROCESS_SUBCLASS_SOURCE = JobSource("", "multiprocessing", "process")
ARQ_FUNCTION_SOURCE = JobSource("", "arq", "queued", limits=(("timeout", "timeout", 1.0),), name_options=("name",))
ARQ_CRON_SOURCE = JobSource("", "arq cron", "scheduled", limits=(("timeout", "timeout", 1.0),), name_options=("name",))
CELERY_BEAT_SOURCE = JobSource("", "Celery beat", "scheduled")
# A function decorated with a decorator named in the ``job-decorators`` setting: a task system
# bgcheck has no table for; it runs the function as queued work.
CONFIGURED_JOB_SOURCE = JobSource("", "job-decorators", "queued")

# Job frameworks by the top-level module a project imports: the name a warning shows, and the
# frameworks (Job.framework) whose jobs are that framework's. A project that imports one of these
# and declares no job of it most likely registers its jobs through code bgcheck does not follow
# (its own decorator, a factory), and every job rule is silent there: the run says so.
JOB_FRAMEWORK_IMPORTS: dict[str, tuple[str, frozenset[str]]] = {
    "celery": ("Celery", frozenset({"Celery", "Celery beat"})),
    "rq": ("RQ", frozenset({"RQ", "RQ cron", "rq-scheduler"})),
    "django_rq": ("django-rq", frozenset({"RQ", "RQ cron", "rq-scheduler"})),
    "rq_scheduler": ("rq-scheduler", frozenset({"rq-scheduler", "RQ"})),
    "dramatiq": ("Dramatiq", frozenset({"Dramatiq", "Dramatiq (periodiq)"})),
    "huey": ("Huey", frozenset({"Huey"})),
    "arq": ("arq", frozenset({"arq", "arq cron"})),
    "apscheduler": ("APScheduler", frozenset({"APScheduler", "APScheduler 4", "Flask-APScheduler"})),
    "flask_apscheduler": ("Flask-APScheduler", frozenset({"Flask-APScheduler", "APScheduler"})),
    "django_q": ("django-q", frozenset({"django-q"})),
    "aiocron": ("aiocron", frozenset({"aiocron"})),
    "dispatcherd": ("dispatcherd", frozenset({"dispatcherd"})),
    "pulpcore": ("pulpcore", frozenset({"pulpcore"})),
}

# Thread subclasses that override run() are thread jobs.
THREAD_BASES = frozenset({"threading.Thread"})
# Process subclasses that override run() are jobs of a child process.
PROCESS_BASES = frozenset({"multiprocessing.Process", "multiprocessing.context.Process"})

# django-extensions: ``class Job(HourlyJob): def execute(self)`` (or ``BaseJob`` with ``when = "hourly"``)
# in an app's jobs/ package, run by ``manage.py runjobs hourly`` from the system's cron.
# Base class -> the ``when`` it implies (None: the class's own ``when`` attribute says).
DJANGO_EXTENSIONS_JOB_BASES = {
    "django_extensions.management.jobs.BaseJob": None,
    "django_extensions.management.jobs.MinutelyJob": "minutely",
    "django_extensions.management.jobs.QuarterHourlyJob": "quarter_hourly",
    "django_extensions.management.jobs.HourlyJob": "hourly",
    "django_extensions.management.jobs.DailyJob": "daily",
    "django_extensions.management.jobs.WeeklyJob": "weekly",
    "django_extensions.management.jobs.MonthlyJob": "monthly",
    "django_extensions.management.jobs.YearlyJob": "yearly",
}
# ``when`` -> its interval in seconds (months and years are not a fixed interval: cron).
DJANGO_EXTENSIONS_WHEN_SECONDS = {"minutely": 60.0, "quarter_hourly": 900.0, "hourly": 3600.0, "daily": 86400.0, "weekly": 604800.0}
DJANGO_EXTENSIONS_JOB_SOURCE = JobSource("", "django-extensions", "scheduled")
# Library base classes whose methods the framework's worker runs on an instance of each subclass:
# Nautobot's jobs (``class Backup(Job): def run(self, ...)``, run by its Celery worker's ``run_job``
# task), NetBox's background jobs (``class Sync(JobRunner): def run(self, ...)``, run by an RQ
# worker) and CKAN harvesters (``class CSWHarvester(HarvesterBase)``: the gather consumer runs
# ``gather_stage(job)``, the fetch consumer ``fetch_stage(obj)`` then ``import_stage(obj)`` for each
# object it takes off the harvest queue), Luigi tasks (a Luigi worker runs ``run()``) and Airflow
# operators (a worker runs ``execute(context)``; a sensor's ``poke(context)`` until it is true),
# Airflow 2's ``airflow.models`` and Airflow 3's ``airflow.sdk``. Base class -> (framework, the
# methods run). Each of those methods a subclass defines is a job.
LIBRARY_JOB_CLASSES: dict[str, tuple[str, tuple[str, ...]]] = {
    "nautobot.apps.jobs.Job": ("Nautobot", ("run",)),
    "nautobot.apps.jobs.BaseJob": ("Nautobot", ("run",)),
    "nautobot.extras.jobs.Job": ("Nautobot", ("run",)),
    "nautobot.extras.jobs.BaseJob": ("Nautobot", ("run",)),
    "netbox.jobs.JobRunner": ("NetBox", ("run",)),
    "ckanext.harvest.harvesters.HarvesterBase": ("CKAN harvest", ("gather_stage", "fetch_stage", "import_stage")),
    "ckanext.harvest.harvesters.base.HarvesterBase": ("CKAN harvest", ("gather_stage", "fetch_stage", "import_stage")),
    "luigi.Task": ("Luigi", ("run",)),
    "luigi.task.Task": ("Luigi", ("run",)),
    "airflow.models.BaseOperator": ("Airflow", ("execute",)),
    "airflow.models.baseoperator.BaseOperator": ("Airflow", ("execute",)),
    "airflow.sdk.BaseOperator": ("Airflow", ("execute",)),
    "airflow.sdk.bases.operator.BaseOperator": ("Airflow", ("execute",)),
    "airflow.sensors.base.BaseSensorOperator": ("Airflow", ("poke", "execute")),
    "airflow.sdk.BaseSensorOperator": ("Airflow", ("poke", "execute")),
    "airflow.sdk.bases.sensor.BaseSensorOperator": ("Airflow", ("poke", "execute")),
}
LIBRARY_JOB_SOURCES = {framework: JobSource("", framework, "queued") for framework, _methods in LIBRARY_JOB_CLASSES.values()}
# A Django management command whose handle() runs an endless loop (itself or through the functions it
# calls within WORKER_COMMAND_DEPTH calls) is a worker process: ``manage.py process_queue`` under systemd.
WORKER_COMMAND_SOURCE = JobSource("", "Django command", "worker loop")
WORKER_COMMAND_DEPTH = 3
# A project decorator that stores the function in a container (dict, list, set) whose items a
# worker loop of the project calls: the decorated functions are that worker's jobs. The loop may be
# the caller's, within REGISTRY_RUNNER_DEPTH calls.
REGISTRY_SOURCE = JobSource("", "project registry", "queued")
REGISTRY_RUNNER_DEPTH = 3

# arq: WorkerSettings.functions = [f, func(g, timeout=...)], cron_jobs = [cron(f, ...)].
ARQ_CRON = frozenset({"arq.cron", "arq.cron.cron"})
ARQ_FUNC = frozenset({"arq.func", "arq.worker.func"})

# Cron helpers whose omitted fields mean "every" (so hour=3 fires every minute of hour 3).
CRONTAB_EVERY_DEFAULT = frozenset({"celery.schedules.crontab", "celery.crontab", "huey.crontab", "huey.api.crontab"})
# Trigger classes (3.x and 4.x share these paths) -> trigger alias.
APSCHEDULER_TRIGGERS = {
    "apscheduler.triggers.interval.IntervalTrigger": "interval",
    "apscheduler.triggers.cron.CronTrigger": "cron",
    "apscheduler.triggers.date.DateTrigger": "date",
    "apscheduler.triggers.cron.CronTrigger.from_crontab": "crontab",
}
PERIODIQ_CRON = frozenset({"periodiq.cron"})
CELERY_SIGNATURE_METHODS = ("s", "si", "signature")
# Signatures made from a task *name*: ``app.signature("proj.add")``, ``celery.signature("proj.add")``.
CELERY_SIGNATURE_BY_NAME = frozenset(
    {"celery.signature", "celery.canvas.signature", "celery.Signature", "celery.canvas.Signature"}
    | {f"{app}().signature" for app in CELERY_APP_CLASSES}
)
# Decorator options that give a job the name its framework knows it by (APScheduler ``id``/``name``,
# dramatiq ``actor_name``, Celery/Huey ``name``), nearest first. Calls list theirs in ``name_options``.
JOB_NAME_OPTIONS = ("name", "actor_name", "id")

# --- what the summary records ----------------------------------------------

# Decorators that make a method a base class's placeholder (FunctionSummary.abstract): once a
# subclass overrides it, what runs is the override.
ABSTRACT_METHOD_DECORATORS = frozenset({"abc.abstractmethod"})

# Calls recorded with their arguments (by the last name in the called
# expression), for models that need more than "who calls whom".
RECORDED_CALL_NAMES = frozenset(
    {
        "update",
        "atomic",  # transaction.atomic(using=...): a read replica's snapshot is no transaction (BG604)
        "config_from_object",
        "add_job",
        "add_schedule",
        "add_periodic_task",
        "enqueue",
        "enqueue_call",
        "AsyncTask",
        "enqueue_in",
        "enqueue_at",
        "register",
        "schedule",
        "cron",
        "do",
        "Thread",
        "Timer",  # threading.Timer
        "start_new_thread",  # _thread
        "start_new",
        "Process",  # multiprocessing
        "create_task",
        "ensure_future",
        "submit",
        "run_in_executor",
        "crontab",
        "async_task",
        "submit_task",
        "dispatch",  # pulpcore
        "enqueue_job",  # CKAN's toolkit
        "PythonOperator",  # Airflow's python_callable
        "BranchPythonOperator",
        "ShortCircuitOperator",
        "adispatch",
        "Consumer",  # kombu's per-message callbacks (MESSAGE_CALLBACK_CALLS)
        "register_callback",
        "spawn_callback",  # Tornado's IOLoop callbacks
        "add_callback",
        "add_callback_from_signal",
        "add_timeout",
        "call_later",
        "call_at",
        "PeriodicCallback",
        # shutdown paths and entry points (BG4xx)
        "signal",
        "add_signal_handler",
        "add_event_handler",
        "connect",
        "run",
        "start",
        "start_in_background",
        "run_until_stopped",
        "run_until_complete",
        "run_coroutine_threadsafe",
        "shutdown",
        "terminate",
        "join",
        "wait",
        "wait_for",
        "sleep",
        "result",
        "gather",
        "flush",
        "close",
        # lock acquisitions (BG5xx)
        "lock",
        "Lock",
        "RedisLock",
        "Redlock",
        "AIORedlock",
        "synchronize",
        "lock_task",
        "ConcurrentRateLimiter",
        "set",
        "add",
        # money and transactions (BG6xx)
        "on_commit",
        "path",  # Django URL routes: what they route to is a view (BG604 under ATOMIC_REQUESTS)
        "re_path",
        "url",
    }
)
# Recorded only when the receiver is not a string literal (``", ".join(...)``).
RECORDED_SKIP_ON_STRINGS = frozenset({"join"})
# Generic method names recorded only on a receiver spelled this way.
RECORDED_METHOD_CALLS: dict[str, frozenset] = {"create": frozenset({"Schedule.objects"})}

# --- jobs must end, and end in time (BG2xx) --------------------------------

# Calls that raise nothing into their caller: a logging call reports a failure of its handlers
# itself (logging.Handler.handleError) and returns. A function whose one try keeps every error and
# whose other statements are such calls loses no exception with its dropped future (BG605).
NON_RAISING_CALLS = LazyPattern(
    r"(logging(\.getLogger\(\)|\.Logger\(\)|\.LoggerAdapter\(\)|\.root)?|loguru\.logger)"
    r"\.(debug|info|warning|warn|error|exception|critical|fatal|log|trace|success)"
)

# A word that says "stop", matched against each part of an identifier
# (``should_exit``, ``shutdownRequested``): a loop that tests one can be told to end.
STOP_SIGNAL_WORDS = LazyPattern(
    r"stop|stopped|stopping|shutdown|shutting|running|exit|exiting|quit|terminate|terminated|terminating|"
    r"cancel|cancelled|canceled|alive|closing|closed|finished|halt|halted|kill|killed|done"
)
# Methods whose call in a loop condition is a stop check (``event.is_set()``).
STOP_SIGNAL_METHODS = frozenset({"is_set", "isSet", "is_shutdown", "should_stop", "is_closed"})

# Identifiers that show a polling loop has a deadline or a bounded number of tries.
DEADLINE_WORDS = LazyPattern(
    r"deadline|timeout|time_limit|monotonic|perf_counter|elapsed|attempt|tries|retries|retry|max_|remaining|until|expire|budget",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class BlockingWait:
    """A call that can wait for ever unless given a time bound (BG203)."""

    pattern: str  # regex over the canonical name of the called function
    what: str  # how the message names it
    timeout_kw: str = "timeout"
    timeout_pos: Optional[int] = None  # positional index of the timeout, if it can be passed so
    explicit_none_only: bool = False  # bounded by default; unbounded only with timeout=None
    nonblocking_kw: Optional[str] = None  # ``queue.get(block=False)`` does not wait
    nonblocking_pos: Optional[int] = None
    # A consumer's wait for its next item: it holds no stop when the queue carries a stop sentinel
    # (``if item is None: break``) or when only unjoined daemon threads wait in it.
    consumer_wait: bool = False
    family: str = ""  # the library whose calls a process-wide default bounds (DEFAULT_TIMEOUT_PATCHES)
    # The wait is for another service, over the network (an HTTP server, a broker, another
    # worker's result): BG203. Every other wait (a thread, a queue, a future, a child process, all
    # on this machine and often ending on their own) is BG206's.
    peer: bool = False
    # What the message tells to do, when it is not "pass ``timeout_kw=``" (a bound set in settings).
    advice: str = ""

    @property
    def regex(self) -> "re.Pattern[str]":
        return _compiled(self.pattern)


_HTTP_METHODS = r"(get|post|put|patch|delete|head|options|request)"
BLOCKING_WAITS: tuple[BlockingWait, ...] = (
    BlockingWait(r"concurrent\.futures(\.\w+)*\.Future\(\)\.result", "`Future.result()`", timeout_pos=0),
    BlockingWait(r"kafka(\.producer)?(\.kafka)?\.KafkaProducer\(\)\.send\(\)\.get", "kafka-python `send().get()`", timeout_pos=0, peer=True),
    BlockingWait(r"kafka(\.producer)?(\.kafka)?\.KafkaProducer\(\)\.flush", "`KafkaProducer.flush()`", timeout_pos=0, peer=True),
    BlockingWait(r"confluent_kafka\.Producer\(\)\.flush", "confluent-kafka `Producer.flush()`", timeout_pos=0, peer=True),
    BlockingWait(r"threading\.Thread\(\)\.join", "`Thread.join()`", timeout_pos=0),
    BlockingWait(
        r"(queue\.(Queue|LifoQueue|PriorityQueue|SimpleQueue)|multiprocessing(\.queues)?\.(Queue|JoinableQueue|SimpleQueue))\(\)\.get",
        "`queue.get()`",
        timeout_pos=1,
        nonblocking_kw="block",
        nonblocking_pos=0,
        consumer_wait=True,
    ),
    BlockingWait(rf"requests(\.api)?\.{_HTTP_METHODS}", "A `requests` call", family="requests", peer=True),
    BlockingWait(rf"requests(\.sessions)?\.Session\(\)\.{_HTTP_METHODS}", "A `requests` call", family="requests", peer=True),
    BlockingWait(rf"httpx\.({_HTTP_METHODS}|stream)", "An `httpx` call", explicit_none_only=True, peer=True),
    BlockingWait(rf"httpx\.(Async)?Client\(\)\.({_HTTP_METHODS}|stream|send)", "An `httpx` call", explicit_none_only=True, peer=True),
    BlockingWait(r"asyncio(\.tasks)?\.wait_for", "`asyncio.wait_for(..., None)`", timeout_pos=1, explicit_none_only=True),
    BlockingWait(r"subprocess\.(run|call|check_call|check_output)", "A `subprocess` call"),
    BlockingWait(r"subprocess\.Popen\(\)\.wait", "`Popen.wait()`", timeout_pos=0),
    BlockingWait(r"subprocess\.Popen\(\)\.communicate", "`Popen.communicate()`", timeout_pos=1),
    # a Celery task's result: ``task.delay(...).get()``; not a multiprocessing pool's
    # ``pool.apply_async(f).get()``, a result of this machine's own threads or processes
    BlockingWait(r"(?!multiprocessing\.).*\.(delay|apply_async)\(\)\.get", "`AsyncResult.get()`", timeout_pos=0, peer=True),
    # The standard library's network clients wait as long as the socket's global default allows,
    # which is for ever unless the program calls socket.setdefaulttimeout(). A client object takes
    # its timeout when it is made: the constructor is where it is missing (a later connect(),
    # request() or login() waits with it).
    BlockingWait(r"urllib\.request\.urlopen", "`urlopen()`", timeout_pos=2, family="socket", peer=True),
    BlockingWait(r"urllib\.request\.(build_opener\(\)|OpenerDirector\(\))\.open", "`OpenerDirector.open()`", timeout_pos=2, family="socket", peer=True),
    BlockingWait(r"socket\.create_connection", "`socket.create_connection()`", timeout_pos=1, family="socket", peer=True),
    BlockingWait(r"http\.client\.HTTPConnection", "An `HTTPConnection`", timeout_pos=2, family="socket", peer=True),
    BlockingWait(r"http\.client\.HTTPSConnection", "An `HTTPSConnection`", family="socket", peer=True),
    BlockingWait(r"smtplib\.SMTP", "An `SMTP` client", timeout_pos=3, family="socket", peer=True),
    BlockingWait(r"smtplib\.SMTP_SSL", "An `SMTP_SSL` client", family="socket", peer=True),
    BlockingWait(r"ftplib\.FTP", "An `FTP` client", timeout_pos=4, family="socket", peer=True),
    BlockingWait(r"imaplib\.IMAP4", "An `IMAP4` client", timeout_pos=2, family="socket", peer=True),
    BlockingWait(r"imaplib\.IMAP4_SSL", "An `IMAP4_SSL` client", family="socket", peer=True),
    BlockingWait(r"poplib\.POP3", "A `POP3` client", timeout_pos=2, family="socket", peer=True),
    # urlretrieve() takes no timeout at all; an XML-RPC proxy waits with its transport's connections
    # (a ``transport=`` passed in may bound them); httplib2 (no timeout unless given one).
    BlockingWait(
        r"urllib\.request\.urlretrieve",
        "`urlretrieve()`",
        family="socket",
        peer=True,
        advice="`urlretrieve()` takes no timeout: use `urlopen(url, timeout=...)` and write the file, or call `socket.setdefaulttimeout()`.",
    ),
    BlockingWait(
        r"(xmlrpc\.client|xmlrpclib)\.(ServerProxy|Server)",
        "An XML-RPC `ServerProxy`",
        timeout_kw="transport",
        timeout_pos=1,
        family="socket",
        peer=True,
        advice="Pass a `transport=` whose connections have a timeout, or call `socket.setdefaulttimeout()`, and handle the timeout.",
    ),
    BlockingWait(r"httplib2\.Http", "An `httplib2.Http` client", timeout_pos=1, family="socket", peer=True),
    # Django's mail API sends through the backend EMAIL_BACKEND names, SMTP unless set, which
    # connects with EMAIL_TIMEOUT: None unless set, so the socket's global default, for ever. A
    # ``connection=`` passed in was made elsewhere (with its own timeout, maybe): not judged here.
    *(
        BlockingWait(
            rf"django\.core\.mail\.{function}",
            f"`{function}()`",
            timeout_kw="connection",
            timeout_pos=position,
            family="django-mail",
            peer=True,
            advice="Set `EMAIL_TIMEOUT` in the Django settings and handle the timeout.",
        )
        for function, position in (("send_mail", 7), ("send_mass_mail", 4), ("mail_admins", 3), ("mail_managers", 3))
    ),
    BlockingWait(
        r"django\.core\.mail(\.message)?\.(EmailMessage|EmailMultiAlternatives)\(\)\.send",
        "`EmailMessage.send()`",
        timeout_kw="connection",
        family="django-mail",
        peer=True,
        advice="Set `EMAIL_TIMEOUT` in the Django settings and handle the timeout.",
    ),
)
# The object a framework reads its settings from -> a name every settings module of it binds:
# ``settings.X`` reads X from the project's settings modules (ProjectIndex.setting).
SETTINGS_OBJECTS: dict[str, str] = {"django.conf.settings": "INSTALLED_APPS"}
# Settings a function may set on a settings object it is handed (``settings.DATABASES = {...}`` in a
# platform's ``setup_settings(settings, ...)``), recorded among attr_assignments as "?settings.DATABASES".
SETTINGS_SET_ON_A_HANDED_OBJECT = frozenset({"DATABASES"})
# Settings whose value in the project's files says nothing of production: the deployment sets them
# (Django's DEBUG ships True in development settings and must be False when deployed).
DEPLOYMENT_SETTINGS = frozenset({"django.conf.settings.DEBUG"})

# BlockingWait families bounded (or not) by a project's settings module (BG203): family -> the
# setting that bounds the wait, the setting that picks where the calls go, the values of that
# setting that wait unbounded (None: not set), and a name every settings module of the framework
# binds (a project without one is a library: the deployer's settings decide). A socket default
# (``socket.setdefaulttimeout``) bounds these too.
# ``named_backends``: a setting holding the backends by name (Django 6.1's ``MAILERS = {"default":
# {"BACKEND": ..., "OPTIONS": {"timeout": ...}}}``, which replaces EMAIL_BACKEND and EMAIL_TIMEOUT):
# its "default" entry picks the backend and may carry the timeout among its options.
@dataclass(frozen=True)
class SettingsTimeout:
    timeout: str
    backend: str
    unbounded_backends: frozenset
    settings_marker: str
    named_backends: Optional[str] = None


SETTINGS_TIMEOUTS: dict[str, SettingsTimeout] = {
    "django-mail": SettingsTimeout(
        timeout="EMAIL_TIMEOUT",
        backend="EMAIL_BACKEND",
        unbounded_backends=frozenset({None, "django.core.mail.backends.smtp.EmailBackend"}),
        settings_marker="INSTALLED_APPS",
        named_backends="MAILERS",
    ),
}

# Calls that bound a BlockingWait family process-wide wherever the project makes them (BG203):
# ``socket.setdefaulttimeout(30)`` gives every standard-library client that timeout.
DEFAULT_TIMEOUT_CALLS: dict[str, str] = {"socket.setdefaulttimeout": "socket"}

# A process-wide default timeout (BG203): the project replaces one of these methods (as resolved)
# with a function of its own that takes ``timeout`` (to fill one in when the caller passed none,
# as pretix does for requests), so every call of that library goes through it bounded. A
# replacement without a ``timeout`` parameter (tracing, logging) bounds nothing.
# Patched method -> the BlockingWait family it bounds.
DEFAULT_TIMEOUT_PATCHES: dict[str, str] = {
    "requests.adapters.HTTPAdapter.send": "requests",
    "requests.sessions.HTTPAdapter.send": "requests",
    "requests.sessions.Session.request": "requests",
    "requests.sessions.Session.send": "requests",
    "requests.Session.request": "requests",
    "requests.Session.send": "requests",
}

# Row locks (BG204): method name -> the keyword options that make them not wait.
ROW_LOCK_METHODS: dict[str, tuple[str, ...]] = {
    "select_for_update": ("skip_locked", "nowait"),  # Django QuerySet
    "with_for_update": ("skip_locked", "nowait"),  # SQLAlchemy Select / Query
}
# A locked query that names one row: a method of the chain that returns exactly one (Django's
# ``get``, SQLAlchemy's ``one``), or a filter on the primary key (BG204: such a lock is a mutex on
# that row, and skip_locked would make the row vanish, not let replicas split a batch).
SINGLE_ROW_METHODS = frozenset({"get", "get_or_create", "update_or_create", "one", "one_or_none", "scalar_one", "scalar_one_or_none"})
PRIMARY_KEY_FILTERS = {"filter": frozenset({"pk", "id"}), "filter_by": frozenset({"id"})}
SQL_FOR_UPDATE = LazyPattern(r"\bFOR\s+(NO\s+KEY\s+)?UPDATE\b", re.IGNORECASE)
SQL_NOT_WAITING = LazyPattern(r"\bSKIP\s+LOCKED\b|\bNOWAIT\b", re.IGNORECASE)
SQL_SELECT = LazyPattern(r"\bSELECT\b", re.IGNORECASE)
# A locked query that takes some of the matching rows (BG204 flags only these claims: a lock on
# every matching row serialises with their other writers, and skip_locked would leave rows out).
# Methods of the chain (a slice ``[:n]`` counts too) and the SQL that does the same.
ROW_BATCH_METHODS = frozenset({"first", "last", "earliest", "latest", "limit", "slice", "fetch"})
SQL_BATCH = LazyPattern(r"\bLIMIT\b|\bFETCH\s+(FIRST|NEXT)\b|\bTOP\s*\(?\s*\d", re.IGNORECASE)
# A Django manager read off a model class (``Order.objects``); any other attribute of an instance
# (``order.payments``) is a related manager: its queryset holds the rows of that one parent (BG204:
# a lock there serialises work on one object, it is no batch that replicas could split).
CLASS_MANAGER_ATTRIBUTES = frozenset({"objects", "_default_manager", "_base_manager"})
DJANGO_MODEL_BASES = frozenset({"django.db.models.Model", "django.db.models.base.Model"})

# A decorator whose name says it takes a lock (``@single_instance``, ``@redis_lock(...)``): a scheduled
# job under one is guarded against its twin on another replica (BG205), whatever the lock.
LOCK_DECORATOR_WORDS = LazyPattern(r"lock|single_instance|singleton|once|mutex", re.IGNORECASE)

# --- queues and executors (BG3xx) -------------------------------------------

# Queue constructors -> positional index of ``maxsize`` (None: always unbounded).
QUEUE_CONSTRUCTORS: dict[str, Optional[int]] = {
    "queue.Queue": 0,
    "queue.LifoQueue": 0,
    "queue.PriorityQueue": 0,
    "queue.SimpleQueue": None,
    "asyncio.Queue": 0,
    "asyncio.LifoQueue": 0,
    "asyncio.PriorityQueue": 0,
    "asyncio.queues.Queue": 0,
    "asyncio.queues.LifoQueue": 0,
    "asyncio.queues.PriorityQueue": 0,
    "multiprocessing.Queue": 0,
    "multiprocessing.JoinableQueue": 0,
    "multiprocessing.SimpleQueue": None,
    "multiprocessing.get_context().Queue": 0,
    "multiprocessing.get_context().JoinableQueue": 0,
    "multiprocessing.get_context().SimpleQueue": None,
}
EXECUTOR_CLASSES = frozenset(
    {
        "concurrent.futures.ThreadPoolExecutor",
        "concurrent.futures.ProcessPoolExecutor",
        "concurrent.futures.thread.ThreadPoolExecutor",
        "concurrent.futures.process.ProcessPoolExecutor",
    }
)
POOL_CLASSES = frozenset({"multiprocessing.Pool", "multiprocessing.pool.Pool", "multiprocessing.pool.ThreadPool", "multiprocessing.get_context().Pool"})
# Pools the interpreter's exit stops by losing their work (BG401): multiprocessing's atexit finalizer
# terminates a Pool or ThreadPool nobody closed, killing the running tasks and dropping the queued ones
# (cpy3.11 multiprocessing/pool.py: util.Finalize(_terminate_pool, exitpriority=15)). Not here, as their
# exit loses nothing a shutdown() would keep: concurrent.futures executors, whose workers exit joins
# after running every queued item, as shutdown(wait=True) does (threading._register_atexit, before
# atexit hooks); APScheduler 3.x schedulers, whose thread is a daemon and whose running jobs finish in
# a concurrent.futures executor (4.x registers atexit hooks that shut it down).
POOLS_TERMINATED_AT_EXIT = POOL_CLASSES
APSCHEDULER_CLASS = LazyPattern(r"apscheduler(\.\w+)*\.(\w*Scheduler)")
# Methods that return a database cursor or iterate one, by name: the connection is often a
# parameter, so the receiver does not resolve (BG302: not sized).
CURSOR_METHODS = frozenset({"cursor", "execute", "iterator"})
# Iterables that are not sized: every item is submitted at once (BG302).
UNSIZED_ITERABLE_CALLS = frozenset({"itertools.count", "itertools.cycle", "open", "io.open", "iter", "os.scandir", "os.walk", "sys.stdin"})
STREAM_CONSUMERS = LazyPattern(
    r"(kafka(\.\w+)*\.KafkaConsumer|aiokafka(\.\w+)*\.AIOKafkaConsumer|confluent_kafka\.Consumer|"
    r"itertools\.(count|cycle)|open|sys\.stdin)(\(\))?$"
)
# Per-message callbacks (BG301): a function handed to one of these calls is called by the library once
# per message it takes from the broker, from its own loop over the stream (kombu's drain_events
# dispatches each delivery to ``Consumer.on_message`` or to every item of ``Consumer.callbacks``;
# ``register_callback(f)`` appends to them: kombu/messaging.py). A put into a queue there is fed in a
# loop, as one in ``for msg in consumer:`` is. Canonical call -> the argument keys that hand the
# callback (a function, or a list of them; "0" the first positional argument).
MESSAGE_CALLBACK_CALLS: dict[str, tuple[str, ...]] = {
    "kombu.Consumer": ("on_message", "callbacks"),
    "kombu.messaging.Consumer": ("on_message", "callbacks"),
    "kombu.Consumer().register_callback": ("0",),
    "kombu.messaging.Consumer().register_callback": ("0",),
}
# Parameters a library fills when it calls a method of your subclass: (base class, method,
# parameter) -> the canonical name of what it hands. kombu's ConsumerMixin.run calls
# ``self.get_consumers(partial(Consumer, channel, ...), channel)`` (kombu/mixins.py).
FRAMEWORK_PARAMETERS: dict[tuple[str, str, str], str] = {
    ("kombu.mixins.ConsumerMixin", "get_consumers", "Consumer"): "kombu.Consumer",
    ("kombu.mixins.ConsumerProducerMixin", "get_consumers", "Consumer"): "kombu.Consumer",
}
# BG303 judges a per-item start (WORK_STARTS) only on a receiver whose type is known: by the call's
# canonical name, an event loop, a TaskGroup, an anyio task group or trio nursery, an executor.
FANOUT_CALLS = LazyPattern(
    r"asyncio(\.tasks)?\.(create_task|ensure_future)|asyncio\.get_event_loop\(\)\.(create_task|run_in_executor)|"
    r"asyncio(\.taskgroups)?\.TaskGroup\(\)\.create_task|"
    r"(anyio(\.\w+)*\.create_task_group|trio(\.\w+)*\.open_nursery)\(\)\.start_soon|"
    r"concurrent\.futures(\.\w+)*\.(ThreadPoolExecutor|ProcessPoolExecutor|Executor)\(\)\.submit"
)
# A loop that starts a task per item is bounded (BG303) when its code checks the number in flight:
# an identifier with one of these words in it (``sem.acquire()``, ``len(pending)``, ``max_concurrency``,
# ``return_when=FIRST_COMPLETED``) or a call of one of these builtins; or when the function around
# it makes a limiter (an identifier naming one of its classes).
FANOUT_BOUND_WORDS = LazyPattern(r"semaphore|acquire|qsize|FIRST_COMPLETED|max_concurrency|in_flight|inflight|pending|limit", re.IGNORECASE)
FANOUT_BOUND_CALLS = frozenset({"len"})
FANOUT_LIMITERS = LazyPattern(r"Semaphore|CapacityLimiter")
# A limiter handed to a task's coroutine, known by its name when its type is not (``async with
# self.semaphore:`` on an object the caller made with one): BG303's bound inside the task.
FANOUT_LIMITER_NAMES = LazyPattern(r"semaphore|limiter|^_*sem$", re.IGNORECASE)
# A ``for`` over what these calls return walks something already in memory, of a known size: it
# does not feed a queue faster than a consumer can drain it (BG301). By canonical name, or method name.
SIZED_ITERATION_CALLS = frozenset(
    {"range", "enumerate", "zip", "list", "tuple", "sorted", "reversed", "set", "dict", "frozenset", "len", "map", "filter",
     # a directory listing: the files already on disk, read at once, not a stream that keeps coming
     "os.listdir", "os.scandir", "os.walk", "glob.glob", "glob.iglob",
     # one item per future it is given, each as it finishes
     "asyncio.as_completed", "asyncio.tasks.as_completed", "concurrent.futures.as_completed", "concurrent.futures._base.as_completed"}
)
SIZED_ITERATION_METHODS = frozenset({"items", "keys", "values", "copy"})
# A value typed as a collection (a parameter ``urls: list[str]`` or ``Sequence[Item]``) holds its
# items already: a ``for`` over it is sized, as one over a literal list is. ``Iterable``,
# ``Iterator`` and ``AsyncIterator`` are not here: a generator reading a stream is one of those.
SIZED_COLLECTION_TYPES = frozenset(
    {f"{module}.{name}" for module in ("typing", "collections.abc") for name in (
        "List", "Tuple", "Set", "FrozenSet", "Dict", "Mapping", "MutableMapping", "Sequence", "MutableSequence",
        "AbstractSet", "MutableSet", "Collection", "Deque", "DefaultDict", "OrderedDict", "KeysView", "ValuesView", "ItemsView")}
    | {"collections.deque", "collections.OrderedDict", "collections.defaultdict", "collections.Counter"}
)
QUEUE_FULL_EXCEPTIONS = frozenset({"queue.Full", "asyncio.QueueFull", "asyncio.queues.QueueFull", "multiprocessing.queues.Full"})
# What a handler does that records a dropped item (BG304): method or function names.
RECORDING_CALLS = LazyPattern(
    r"(^|\.)(log|debug|info|warning|warn|error|exception|critical|inc|increment|incr|observe|count|record|"
    r"append|appendleft|add|put|put_nowait|reject|nack|requeue|retry|send_error|capture_exception|capture_message)$"
)

# --- clean shutdown (BG4xx) -------------------------------------------------

SIGNAL_INSTALLERS = frozenset({"signal.signal"})
# Handlers of the standard library that raise nothing into the program (SIGINT ignored, or left to
# end the process): with one of them, or a project function that raises nothing, Ctrl-C raises no
# KeyboardInterrupt. ``signal.default_int_handler`` raises it.
QUIET_SIGNAL_HANDLERS = frozenset({"signal.SIG_IGN", "signal.SIG_DFL"})
LOOP_SIGNAL_INSTALLER = LazyPattern(r".*\.add_signal_handler$")
SIGTERM = frozenset({"signal.SIGTERM", "signal.Signals.SIGTERM"})
SHUTDOWN_SIGNALS = frozenset({"signal.SIGTERM", "signal.Signals.SIGTERM", "signal.SIGINT", "signal.Signals.SIGINT"})
ATEXIT_REGISTER = frozenset({"atexit.register"})
WEB_APPS = LazyPattern(r"(fastapi\.FastAPI|fastapi\.applications\.FastAPI|starlette\.applications\.Starlette|fastapi\.APIRouter|fastapi\.routing\.APIRouter)(\(\))?$")
CELERY_SHUTDOWN_SIGNALS = frozenset(
    {"celery.signals.worker_shutdown", "celery.signals.worker_shutting_down", "celery.signals.worker_process_shutdown"}
)
DJANGO_COMMAND_BASES = frozenset({"django.core.management.base.BaseCommand", "django.core.management.BaseCommand"})

# Handing the process to a framework that handles SIGTERM itself (BG404 stays silent).
SIGTERM_HANDLING_RUNNERS = LazyPattern(
    r"uvicorn\.run|uvicorn(\.\w+)*\.Server\(\)\.(run|serve)|gunicorn(\.\w+)*\.run|"
    r"celery\.Celery\(\)\.(worker_main|start)|arq(\.worker)?\.run_worker|rq(\.worker)?\.Worker\(\)\.work|"
    r"dramatiq(\.\w+)*\.main|huey(\.\w+)*\.(Consumer\(\)\.run|consumer_main)|aiohttp\.web\.run_app|"
    r"django\.core\.management\.execute_from_command_line|hypercorn(\.\w+)*\.serve|faust\.App\(\)\.main|"
    r"granian(\.\w+)*\.Granian\(\)\.serve"
)
# Waits in a shutdown path: (regex over the canonical name, what, how it is bounded).
EXECUTOR_SHUTDOWN = LazyPattern(r"concurrent\.futures(\.\w+)*\.(ThreadPoolExecutor|ProcessPoolExecutor)\(\)\.shutdown")
SCHEDULER_SHUTDOWN = LazyPattern(r"apscheduler(\.\w+)*\.\w*Scheduler\(\)\.shutdown")
POOL_TERMINATE = LazyPattern(r"multiprocessing(\.pool)?\.(Pool|ThreadPool)\(\)\.terminate|multiprocessing\.get_context\(\)\.Pool\(\)\.terminate")
GATHER = frozenset({"asyncio.gather", "asyncio.tasks.gather"})
# Waiting for started work (BG402, BG601): functions that wait for the tasks or futures passed to
# them (``asyncio.gather(*tasks)``, ``concurrent.futures.wait(fs)``), by their last name, and methods
# that wait for their receiver (``future.result()``, ``thread.join()``).
WAITS_FOR_ARGUMENTS = frozenset({"gather", "wait", "wait_for", "as_completed"})
WAITS_FOR_RECEIVER = frozenset({"result", "join"})
# Builtins that iterate an iterator to its end (or to an answer) before returning (BG601:
# ``list(pool.map(...))`` waits for every call).
ITERATOR_CONSUMERS = frozenset({"list", "tuple", "set", "frozenset", "dict", "sorted", "sum", "min", "max", "any", "all", "next"})
# Receivers whose ``cancel()`` abandons no work in flight (BG402): a timer or a
# scheduled callback that has not run yet, a cancel scope.
CANCEL_NOT_A_TASK = LazyPattern(
    r"threading\.Timer\(\)|sched\.scheduler\(\)|.*\.(call_later|call_at|call_soon|call_soon_threadsafe)\(\)|"
    r"(anyio|trio)(\.\w+)*\.(CancelScope|move_on_after|fail_after)\(\)"
)
DEADLINE_CONTEXTS = frozenset({"asyncio.timeout", "asyncio.timeout_at", "asyncio.timeouts.timeout", "anyio.fail_after", "anyio.move_on_after", "async_timeout.timeout", "trio.fail_after", "trio.move_on_after"})
# Explicit wait bounds that add up on a shutdown path (BG406): method or function
# name -> (keyword, positional index) of the bound in seconds.
TIMED_WAITS: dict[str, tuple[str, Optional[int]]] = {
    "join": ("timeout", 0),
    "wait": ("timeout", None),
    "wait_for": ("timeout", 1),
    "sleep": ("seconds", 0),
    "result": ("timeout", 0),
    "flush": ("timeout", 0),
    "close": ("timeout", None),
    "shutdown": ("timeout", None),
}

# Publishing a message or enqueueing a task, by method name on any receiver (BG403: a durable
# write; BG604: a message out before the transaction commits), and Kafka producers' send.
PUBLISH_METHODS = frozenset(
    {"delay", "apply_async", "send_task", "enqueue", "enqueue_call", "enqueue_in", "enqueue_at", "enqueue_job", "basic_publish", "produce", "publish"}
)
KAFKA_SEND_PATTERN = r"kafka(\.\w+)*\.KafkaProducer\(\)\.send|aiokafka(\.\w+)*\.AIOKafkaProducer\(\)\.send(_and_wait)?"
# Calls that sleep: a loop that sleeps between checks polls (BG203).
SLEEP_CALLS = frozenset({"time.sleep", "asyncio.sleep", "gevent.sleep", "trio.sleep", "anyio.sleep"})

# The methods of awaited library calls that fail at no other service: a pause (asyncio's, anyio's,
# trio's sleep), and a queue's put (it waits for room at most). An error of the rest (a request,
# a query, a send, a wait_for) is the I/O a dropped task loses unseen (ProjectIndex.losing_io: BG602).
AWAITS_THAT_FAIL_AT_NO_SERVICE = frozenset({"sleep", "put"})
# asyncio's own synchronisation objects: awaiting one of their methods (``Event().wait()``,
# ``Lock().acquire()``, ``Queue().get()``) waits on this process, and fails at no service.
ASYNCIO_PRIMITIVES = LazyPattern(
    r"asyncio\.(Event|Lock|Condition|Semaphore|BoundedSemaphore|Barrier|Queue|LifoQueue|PriorityQueue)\(\)\.\w+"
)
# The awaitable methods of asyncio's own objects (queues, events, locks, conditions, semaphores,
# streams, subprocesses): on a receiver bgcheck cannot type (a parameter), a call of one of these
# names is most likely asyncio's, even when one project function has that name, so it is not taken
# for that function (ProjectIndex.coroutine_candidates).
ASYNCIO_OBJECT_METHODS = frozenset({
    "put", "get", "join", "wait", "wait_for", "acquire", "drain", "wait_closed", "read", "readline",
    "readexactly", "readuntil", "communicate", "start_server",
})
# How many library calls a dropped task's coroutine must await (directly or through the project
# coroutines it awaits) for BG602 to be sure there is work to lose: one may be a readiness probe or
# a single best-effort notice; two make a job (ProjectIndex.losing_io counts up to this).
LOSING_IO_ENOUGH = 2
# Runtimes whose event loop keeps a strong reference to every task (MicroPython's asyncio): a
# module that imports one drops no task the garbage collector can take.
TASK_KEEPING_RUNTIMES = frozenset({"micropython", "uasyncio", "machine"})
# ``asyncio.wait_for(aw, timeout)``: a deadline around what it waits for (BG405).
WAIT_FOR = frozenset({"asyncio.wait_for", "asyncio.tasks.wait_for"})
# Waits for an event or a process, with no deadline unless given ``timeout`` (BG405).
EVENT_WAITS = frozenset({"threading.Event().wait", "asyncio.Event().wait", "subprocess.Popen().wait"})

# Calls that write durably (BG403: a daemon thread is killed mid-write at exit):
# by the last name of the canonical call target. The money model (BG6xx) adds SDK calls.
DURABLE_WRITE_CALLS = LazyPattern(
    r"(.+\.)?(commit|bulk_create|save|send_message|send_mail|xadd|lpush|rpush|" + "|".join(sorted(PUBLISH_METHODS)) + r")$"
    rf"|{KAFKA_SEND_PATTERN}"
    r"|stripe(\.\w+)*\.(create|capture|confirm|pay)"
)

# --- distributed locks (BG5xx) ----------------------------------------------
#
# How each lock API takes its key and its time-to-live, from its documentation.
# ttl: (keyword, positional index, factor to seconds, default seconds when
# omitted; None = never expires). A value of None or 0 means no
# expiry for every API below except pottery (always expires) and Django's
# cache.add (0 = expire at once).


# Methods that count a key up or down (Django's cache, redis-py): a key a function counts is a
# counter (a rate limit's hits), not a lock, even when it was first written with a write-if-absent.
COUNTING_METHODS = frozenset({"incr", "decr", "incrby", "decrby", "incrbyfloat"})


@dataclass(frozen=True)
class LockApi:
    """A call (or decorator) that takes a distributed lock: one table for the lock model (BG5xx,
    ``bgcheck jobs``) and for "this scheduled job takes a lock" (BG205)."""

    pattern: str  # regex over the canonical name of the call (or decorator)
    label: str
    key: Optional[tuple] = None  # (keyword, positional index)
    # (keyword, positional index, factor to seconds, default when omitted); None: a lock whose key
    # and TTL the model does not read (it still guards a job for BG205)
    ttl: Optional[tuple] = None
    zero_means_forever: bool = True
    renewal_kw: Optional[str] = None  # auto_renewal=True renews the TTL in the background
    requires_kw: Optional[tuple] = None  # (keyword, value) that makes the call a lock: set(..., nx=True)
    other_ttl: tuple = ()  # more (keyword, factor) TTL spellings: px= for set()
    absolute_ttl: tuple = ()  # exat=/pxat=/keepttl=: an expiry we do not fold
    none_means_forever: bool = True  # False: the API has no "never expire" (pottery)
    key_prefix: str = ""  # the key as stored is prefix + the key as written (python-redis-lock "lock:")
    # A write-if-absent that says whether it wrote (set nx, cache.add): a lock only for a caller that
    # reads the answer; as a statement of its own it sets a key once (a cache default), locks nothing.
    result_decides: bool = False

    @property
    def regex(self) -> "re.Pattern[str]":
        return _compiled(self.pattern)


_REDIS_CLIENT = r"redis(\.\w+)*\.(Redis|StrictRedis|RedisCluster)\(\)"
LOCK_APIS: tuple[LockApi, ...] = (
    LockApi(rf"{_REDIS_CLIENT}\.lock", "redis-py lock()", ("name", 0), ("timeout", 1, 1.0, None)),
    LockApi(r"redis\.lock\.Lock|redis\.asyncio\.lock\.Lock|aioredis\.lock\.Lock", "redis-py Lock()", ("name", 1), ("timeout", 2, 1.0, None)),
    LockApi(
        rf"{_REDIS_CLIENT}\.set",
        "redis set(nx=True)",
        ("name", 0),
        ("ex", None, 1.0, None),
        requires_kw=("nx", True),
        other_ttl=(("px", 0.001),),
        absolute_ttl=("exat", "pxat", "keepttl"),
        result_decides=True,
    ),
    LockApi(
        r"redis_lock\.(Lock|RedisLock)",
        "python-redis-lock Lock()",
        ("name", 1),
        ("expire", 2, 1.0, None),
        renewal_kw="auto_renewal",
        key_prefix="lock:",
    ),
    LockApi(
        r"pottery(\.\w+)*\.(Redlock|AIORedlock)",
        "pottery Redlock",
        ("key", None),
        ("auto_release_time", None, 1.0, 10.0),
        zero_means_forever=False,
        none_means_forever=False,
        key_prefix="redlock:",
    ),
    LockApi(
        r"pottery(\.\w+)*\.synchronize",
        "pottery synchronize",
        ("key", None),
        ("auto_release_time", None, 1.0, 10.0),
        zero_means_forever=False,
        none_means_forever=False,
        key_prefix="redlock:",
    ),
    LockApi(r"sherlock(\.lock)?\.(Lock|RedisLock|EtcdLock|MCLock)", "sherlock Lock", ("lock_name", 0), ("expire", None, 1.0, 60.0)),
    LockApi(r"django\.core\.cache\.(cache|caches(\.\w+)*)\.lock", "django-redis cache.lock()", ("key", 0), ("timeout", 2, 1.0, None)),
    LockApi(r"django\.core\.cache\.(cache|caches(\.\w+)*)\.add", "Django cache.add()", ("key", 0), ("timeout", 2, 1.0, 300.0), zero_means_forever=False, result_decides=True),
    # huey.contrib.djhuey re-exports HUEY.lock_task as a module function.
    LockApi(
        r"huey(\.\w+)*\.\w*Huey\(\)\.lock_task|huey\.contrib\.djhuey(\.HUEY)?\.lock_task",
        "huey lock_task()",
        ("lock_name", 0),
        ("ttl", 1, 1.0, None),
    ),
    # With limit=1 (the default) a distributed mutex; any limit keeps runs from piling up.
    LockApi(r"dramatiq(\.\w+)*\.ConcurrentRateLimiter", "dramatiq ConcurrentRateLimiter", ("key", 1), ("ttl", None, 0.001, 900.0)),
    # Locks whose key and TTL are not read: they count as taking a lock, nothing more.
    LockApi(rf"{_REDIS_CLIENT}\.setnx", "redis setnx()", result_decides=True),
    LockApi(r"sherlock(\.lock)?\.FileLock", "sherlock FileLock"),
    LockApi(r"django_redis(\.\w+)*\.lock", "django-redis lock"),
    # a ``.lock(...)`` or ``acquire_lock(...)`` on anything that is not an in-process lock
    LockApi(
        r"(?!threading\.|asyncio\.|multiprocessing\.)(.+\.)?(lock|acquire_lock|advisory_lock|try_advisory_lock|distributed_lock)",
        "a lock",
    ),
)
# celery_once: @app.task(base=QueueOnce, once={"timeout": N}); default 3600 s.
CELERY_ONCE_BASES = frozenset({"celery_once.QueueOnce", "celery_once.tasks.QueueOnce"})
CELERY_ONCE_DEFAULT_TTL = 3600.0
# Deleting a key directly (BG503).
KEY_DELETES = frozenset({"delete", "unlink", "hdel"})
# Reading a key's value (BG503: ``if r.get(key) == token: r.delete(key)`` checks the owner first).
KEY_READS = frozenset({"get"})

# --- money (BG6xx) ------------------------------------------------------------
#
# Payment SDK calls that move money (from each SDK's reference), as regexes over
# canonical names. Reading a payment (retrieve, list) does not move money.
MONEY_CALLS: tuple[str, ...] = (
    # stripe, resource-class style (class or instance methods; sync and _async)
    r"stripe\.(Charge\.(create|capture)|PaymentIntent\.(create|confirm|capture)|Refund\.create|Transfer\.create|"
    r"Payout\.create|Invoice\.pay|Subscription\.create|checkout\.Session\.create|SetupIntent\.(create|confirm))(_async)?",
    r"stripe\.(Charge|PaymentIntent|Invoice|SetupIntent)\.(retrieve|construct_from)\(\)\.(capture|confirm|pay)(_async)?",
    # stripe, StripeClient style (v1 namespace and the deprecated flat one)
    r"stripe\.StripeClient\(\)(\.v1)?\.(payment_intents\.(create|confirm|capture)|charges\.(create|capture)|"
    r"refunds\.create|transfers\.create|payouts\.create|invoices\.pay)(_async)?",
    # braintree
    r"braintree\.Transaction\.(sale|submit_for_settlement|submit_for_partial_settlement|refund|credit|clone_transaction|adjust_authorization)",
    r"braintree\.BraintreeGateway\(\)\.transaction\.(sale|submit_for_settlement|submit_for_partial_settlement|refund|credit)",
    # Adyen
    r"Adyen\.Adyen\(\)\.(checkout\.payments_api\.payments|checkout\.modifications_api\.(capture_authorised_payment|"
    r"refund_captured_payment|refund_or_cancel_payment|update_authorised_amount)|payment\.payments_api\.authorise|"
    r"payment\.modifications_api\.(capture|refund|cancel_or_refund)|payout\.instant_payouts_api\.payout|"
    r"transfers\.transfers_api\.transfer_funds)",
    # Square (new SDK and legacy)
    r"square(\.client)?\.(Square|AsyncSquare)\(\)\.(payments\.(create|complete)|refunds\.refund_payment)",
    r"(square_legacy|square)(\.client)?\.Client\(\)\.(payments\.create_payment|payments\.complete_payment|refunds\.refund_payment)",
    # razorpay
    r"razorpay\.Client\(\)\.(payment\.(capture|refund|transfer)|refund\.create|transfer\.create)",
    # mollie
    r"mollie\.api\.client\.Client\(\)\.(payments\.create|payments\.get\(\)\.refunds\.create)",
    # PayPal REST SDK: a payment approved by the payer is executed on the found object
    # (``Payment.find(id).execute({"payer_id": ...})``), an authorization captured the same way.
    r"paypalrestsdk\.(Payment|Payout)\(\)\.(create|execute)|paypalrestsdk\.Payment\.find\(\)\.execute|"
    r"paypalrestsdk\.(Sale|Capture)\.find\(\)\.refund|paypalrestsdk\.Authorization\.find\(\)\.capture",
)
# Whole-word name patterns (identifier words, split at _ and camelCase): a project function or an
# unresolved method whose name has these words moves money. None by default: a name never makes
# money (litellm's rate-limit ``CounterRefund``, skyvern's in-memory LLM budget ``charge_cost``);
# a project whose names it trusts lists them in ``[tool.bgcheck.money] name-patterns``.
DEFAULT_MONEY_NAME_PATTERNS: tuple[str, ...] = ()
# Names that match a money pattern but do not move money (unless the pattern itself has the word):
# a predicate, whose first word asks a question about the money (``is_reverse_charge``,
# ``has_refund``, ``can_charge``), and a name with a word that says the money is booked, not moved
# (``record_refund``, ``log_charge``, ``mark_payout_sent``, ``create_external_refund``: a refund made
# elsewhere, at the bank or by hand, entered in the books).
MONEY_PREDICATE_FIRST_WORDS = frozenset({"is", "has", "have", "can", "should", "was", "were", "needs", "must", "may", "allows", "supports"})
MONEY_RECORDING_WORDS = frozenset({"record", "records", "recorded", "log", "logs", "logged", "mark", "marks", "external"})

# A TaskGroup keeps its tasks and raises their errors (BG601, BG602).
# Calls that run a coroutine as the root of an event loop: when the coroutine returns, no caller
# goes on from its result (unlike ``await f()``, ``gather(f())`` or ``wait_for(f(), t)``). Tasks of
# their own are the WORK_STARTS rows whose function is a coroutine (``create_task(f())``).
EVENT_LOOP_ROOTS = frozenset(
    {"asyncio.run", "asyncio.runners.run", "asyncio.Runner().run", "asyncio.runners.Runner().run",  # Runner: Python 3.11
     # a coroutine handed from a thread to a loop that runs in another: a task of its own there
     "asyncio.run_coroutine_threadsafe", "asyncio.tasks.run_coroutine_threadsafe"}
)
EVENT_LOOP_ROOT_METHODS = frozenset({"run_until_complete"})  # loop.run_until_complete(f())
# A task started on the running loop (``asyncio.get_running_loop().create_task(coro)``): how a
# project's own ``create_task`` helper usually starts the coroutine it is given.
LOOP_TASK_STARTS = LazyPattern(r"asyncio(\.events)?\.(get_running_loop|get_event_loop|new_event_loop)\(\)\.(create_task|ensure_future)")
TASK_GROUP = LazyPattern(r"(asyncio(\.taskgroups)?\.TaskGroup|anyio\.create_task_group)\(\)")

# Publishing (BG604): by canonical name, or by method name on any receiver.
KAFKA_SEND = LazyPattern(KAFKA_SEND_PATTERN)
# Calls that publish a message or enqueue a task, by the canonical name of the call (BG604: a
# message out before the transaction commits). Only a call that resolves to one of these APIs, or
# to a queued task of the job model (``send_receipt.delay()``, TASK_SEND_METHODS), publishes: a
# method of the same name on a project object (``JobResult.enqueue_job()``) or on an object whose
# type is not known (a parameter ``app``) is not taken for one.
PUBLISH_APIS = LazyPattern("|".join((
    r"celery(\.\w+)*\.Celery\(\)\.send_task",
    r"celery(\.app)?\.current_app\.send_task",
    r"celery(\.\w+)*\.(Task|Signature|signature|chain|group|chord)\(\)\.(delay|apply_async)",
    r"rq(\.\w+)*\.Queue\(\)\.(enqueue|enqueue_call|enqueue_in|enqueue_at|enqueue_many)",
    r"django_rq(\.\w+)*\.(get_queue\(\)\.(enqueue|enqueue_call|enqueue_in|enqueue_at)|enqueue)",
    r"rq_scheduler(\.\w+)*\.Scheduler\(\)\.(enqueue_in|enqueue_at|schedule|cron)",
    r"django_q\.tasks\.(async_task|async_chain|async_iter)",
    r"arq(\.\w+)*\.(ArqRedis\(\)|create_pool\(\))\.enqueue_job",
    r"ckan\.plugins\.toolkit\.enqueue_job|ckan\.lib\.jobs\.enqueue",
    KAFKA_SEND_PATTERN,
    r"confluent_kafka(\.\w+)*\.Producer\(\)\.produce",
    r"pika(\.\w+)*\.(BlockingConnection|SelectConnection)\(\)\.channel\(\)\.basic_publish",
    r"kombu(\.\w+)*\.Producer\(\)\.publish",
    r"redis(\.\w+)*\.(Redis|StrictRedis)\(\)\.(publish|xadd)",
    r"redis(\.\w+)*\.(Redis\.)?from_url\(\)\.(publish|xadd)",
)))
# The methods that send a task of the job model (its function as the receiver); a signature made
# on the way (``send_receipt.s(1).apply_async()``) is one of CELERY_SIGNATURE_METHODS.
TASK_SEND_METHODS = frozenset({"delay", "apply_async"})
DRAMATIQ_SEND = frozenset({"send", "send_with_options"})
TRANSACTION_CONTEXTS = frozenset({"django.db.transaction.atomic", "django.db.transaction.atomic()"})
# ``x.begin()`` opens a transaction when x is, as resolved, a SQLAlchemy session, engine or
# connection (or what a sessionmaker makes), or Flask-SQLAlchemy's ``db.session``. A receiver
# bgcheck cannot type (an unannotated parameter) is not one, whatever its name.
TRANSACTION_BEGIN = LazyPattern(
    r"sqlalchemy(\.\w+)*\.(Session|AsyncSession|Engine|AsyncEngine|Connection|AsyncConnection|create_engine"
    r"|create_async_engine|sessionmaker|async_sessionmaker|scoped_session|async_scoped_session)\(\)(\(\))?\.begin"
    r"|flask_sqlalchemy(\.\w+)*\.SQLAlchemy\(\)\.session(\(\))?\.begin"
    r"|sqlmodel(\.\w+)*\.(Session|AsyncSession)\(\)\.begin"
    r"|fastapi_sqla(\.\w+)*\.(Session|AsyncSession|SqlaSession|AsyncSqlaSession)\(\)\.begin"
)
# Sessions a web framework commits itself once the endpoint returns (fastapi-sqla's ``Session`` and
# ``AsyncSession`` dependencies): their own transaction lasts past the function that writes.
REQUEST_SESSIONS = LazyPattern(r"fastapi_sqla(\.\w+)*\.(Session|AsyncSession|SqlaSession|AsyncSqlaSession)\(\)")
ON_COMMIT = frozenset({"django.db.transaction.on_commit"})
# A SQLAlchemy session (a receiver whose ``begin`` is in TRANSACTION_BEGIN) begins a transaction of
# its own at its first use ("autobegin"): from a write below until one of SESSION_ENDS, everything the
# function does runs inside it (BG604: ``session.add(order); task.delay(order.id); session.commit()``).
SESSION_WRITES = frozenset({"add", "add_all", "merge", "delete", "flush", "bulk_save_objects", "bulk_insert_mappings", "bulk_update_mappings"})
SESSION_ENDS = frozenset({"commit", "rollback", "close"})
# Methods that write rows, by their name on any receiver (Django's ORM and related managers,
# SQLAlchemy sessions, DB-API cursors): a transaction that makes none of them on the way to a
# publish has nothing for a rollback to take back (BG604). Generous on purpose (``update`` of a
# dict counts too): a name here only keeps a finding.
TRANSACTION_WRITES = frozenset(
    {
        "save", "delete", "create", "bulk_create", "bulk_update", "update", "get_or_create",
        "update_or_create", "add", "remove", "clear", "set", "execute", "executemany",
        "executescript", "merge", "flush", "add_all", "insert", "upsert", "refresh_from_db",
        # Django's ModelAdmin: ``super().save_model(...)`` saves the object, delete_model deletes it
        "save_model", "delete_model",
    }
)
# Stores whose writes no database rollback takes back (calls resolved into these packages are not
# a transaction's writes, whatever their method's name): Django's cache, redis clients.
WRITES_OUTSIDE_TRANSACTIONS = ("django.core.cache.", "redis.")
NON_ATOMIC_REQUESTS = frozenset({"django.db.transaction.non_atomic_requests"})
CONTEXTMANAGER = frozenset({"contextlib.contextmanager", "contextlib.asynccontextmanager"})

# --- Django views (BG604: under ATOMIC_REQUESTS every view runs in a transaction) ---------------
#
# Classes whose subclasses' handler methods Django runs as views: Django's ``View`` and its generic
# views, Django REST framework's ``APIView``, generic API views and viewsets (canonical names).
VIEW_CLASS_BASES = LazyPattern(
    r"django\.views(\.generic(\.\w+)?)?\.\w*View"
    r"|rest_framework\.views\.APIView|rest_framework\.generics\.\w*APIView|rest_framework\.viewsets\.\w*ViewSet"
)
# The methods of such a class that run a request: HTTP handlers, DRF's actions and save hooks, the
# generic editing views' form hooks. Other methods (helpers, ``get_queryset``) may run in a request
# too, but they are judged as ordinary functions through their callers.
VIEW_HANDLER_METHODS = frozenset(
    {
        "get", "post", "put", "patch", "delete", "head", "options", "trace", "dispatch",
        "list", "create", "retrieve", "update", "partial_update", "destroy",
        "perform_create", "perform_update", "perform_destroy", "form_valid",
    }
)
# Decorators that make a method of a viewset an extra action, or a function a view.
VIEW_METHOD_DECORATORS = frozenset({"rest_framework.decorators.action", "rest_framework.decorators.detail_route", "rest_framework.decorators.list_route"})
VIEW_FUNCTION_DECORATORS = frozenset({"rest_framework.decorators.api_view"})
# django-ninja: ``@router.post(...)`` on a ``Router()`` or ``@api.get(...)`` on a ``NinjaAPI()``.
NINJA_OPERATIONS = LazyPattern(r"ninja(\.\w+)*\.(Router|NinjaAPI)\(\)\.(get|post|put|patch|delete|api_operation)")
# ``urls.py``: ``path("orders/", views.create_order)``, ``re_path(..., OrderView.as_view())``; the
# view is the second argument (or ``view=``).
URL_ROUTES = frozenset(
    {"django.urls.path", "django.urls.re_path", "django.urls.conf.path", "django.urls.conf.re_path", "django.conf.urls.url"}
)
AS_VIEW = "as_view"
# ``atomic(using=<alias>)`` on a database alias named as a read replica is a read-only snapshot: there
# is nothing to roll back, so nothing published inside it can announce a write that never happened.
# Only the alias's name tells (bgcheck does not read the database router); other aliases write.
READ_ONLY_DATABASE = LazyPattern(
    r"(.*[_\-.])?(replica|replicas|read|reads|reader|readonly|read_only|ro|slave|follower|standby|secondary|snapshot)(\d+|[_\-.].*)?",
    re.IGNORECASE,
)


# --- starting background work ------------------------------------------------
#
# One table of the calls that start work which then runs on its own, in a task, a thread, a pool,
# a process or a scheduler. The job model lists the rows that name a job framework; each rule asks
# the table for the rows its own field marks.


@dataclass(frozen=True)
class WorkStart:
    label: str  # how messages name it ("" : by the call as written, ``create_task()``)
    pattern: str = ""  # regex over the canonical name of the call ("": known by method name only)
    methods: tuple = ()  # method names that start it on a receiver that may not resolve
    receiver: Optional[str] = None  # what the receiver must be: "executor" (``rules.calls.is_executor_receiver``), "background-tasks"
    func: Optional[tuple] = None  # (keyword, position) of the function the work runs
    awaitable: bool = False  # that argument is a coroutine object (``create_task(worker())``), not a function
    handle: Optional[str] = None  # what the call returns to wait on: "task" | "future" | "thread" | "results"
    started_by: Optional[str] = None  # the method of the instance that starts it (``Thread(...).start()``)
    spelled: tuple = ()  # words a file that makes the call contains (the rules' cheap relevance test)
    task_group: bool = False  # a TaskGroup may own it (``tg.create_task``), and then awaits it
    # the job model lists it: (framework, kind, job-name options); any_receiver as in JobSource
    job: Optional[tuple] = None
    any_receiver: bool = False
    fire_and_forget: bool = False  # BG601: money in it is lost at a stop unless something waits for it
    per_item: bool = False  # BG303: started once per item of a stream, it piles up without a bound
    discarded: Optional[str] = None  # BG602: what is thrown away with its result, "task" or "future"
    from_entry: bool = False  # BG404: an entry point that does this runs work a SIGTERM would kill

    @property
    def regex(self) -> "re.Pattern[str]":
        return _compiled(self.pattern)

    def matches(self, canonical: Optional[str], method: Optional[str]) -> bool:
        """By the canonical name of the call, or by its method name (``method`` is None for a plain call)."""
        return bool(self.pattern and canonical and self.regex.fullmatch(canonical)) or (method is not None and method in self.methods)


# Types of callables (what a parameter annotated ``fn: Callable`` holds): ``add_job(fn)`` of one
# runs a function bgcheck cannot name (the job model lists it as unknown, not as ``typing.Callable``).
CALLABLE_TYPES = frozenset({"typing.Callable", "collections.abc.Callable", "typing_extensions.Callable", "typing.Any"})
# Classes of awaitable objects (what a parameter annotated so holds): ``create_task(x)`` of one runs
# no coroutine function bgcheck can name (the job model lists its function as unknown).
AWAITABLE_TYPES = frozenset(
    {
        f"{module}.{name}"
        for module in ("typing", "collections.abc", "typing_extensions")
        for name in ("Awaitable", "Coroutine", "Generator", "Any")
    }
    | {"asyncio.Future", "asyncio.futures.Future", "asyncio.Task", "asyncio.tasks.Task", "concurrent.futures.Future"}
)

# Tornado's event loop, however it is reached: ``IOLoop.current()``, ``IOLoop.instance()``, ``IOLoop()``.
_TORNADO_LOOP = r"tornado\.ioloop\.IOLoop(\.current|\.instance)?\(\)"

_EXECUTOR_SUBMIT = WorkStart(
    "`Executor.submit()`",
    r"(.*\.)?submit",
    methods=("submit",),
    receiver="executor",
    func=("fn", 0),
    handle="future",
    spelled=("submit",),
    job=("concurrent.futures", "in-process task", ()),
    any_receiver=True,
    fire_and_forget=True,
    per_item=True,
    discarded="future",
)

WORK_STARTS: tuple[WorkStart, ...] = (
    WorkStart(
        "",
        r"asyncio(\.tasks)?\.(create_task|ensure_future)",
        methods=("create_task", "ensure_future"),
        func=("coro", 0),
        awaitable=True,
        handle="task",
        spelled=("create_task", "ensure_future"),
        task_group=True,
        job=("asyncio", "in-process task", ("name",)),
        fire_and_forget=True,
        per_item=True,
        discarded="task",
    ),
    WorkStart(
        "",
        r"(.*\.)?create_task",
        methods=("create_task",),
        func=("coro", 0),
        awaitable=True,
        handle="task",
        spelled=("create_task",),
        task_group=True,
        job=("asyncio", "in-process task", ("name",)),
        any_receiver=True,
        fire_and_forget=True,
        per_item=True,
        discarded="task",
    ),
    # ``ProcessPoolExecutor().submit(fn, ...)`` runs fn in a worker process the pool starts with
    # multiprocessing: a child process, stopped as multiprocessing's are. The generic row below
    # (fn in a thread of this process) with that job, matched by its canonical name only, ahead of it.
    replace(
        _EXECUTOR_SUBMIT,
        pattern=r"concurrent\.futures(\.process)?\.ProcessPoolExecutor\(\)\.submit",
        methods=(),
        receiver=None,
        any_receiver=False,
        job=("multiprocessing", "process", ()),
    ),
    _EXECUTOR_SUBMIT,
    WorkStart("`Executor.map()`", methods=("map",), receiver="executor", func=("fn", 0), handle="results", spelled=("map",), fire_and_forget=True),
    WorkStart(
        "`loop.run_in_executor()`",
        r"(.*\.)?run_in_executor",
        methods=("run_in_executor",),
        func=("func", 1),
        handle="task",
        spelled=("run_in_executor",),
        job=("asyncio", "in-process task", ()),
        any_receiver=True,
        fire_and_forget=True,
        per_item=True,
        discarded="future",
    ),
    WorkStart(
        "`threading.Thread(target=...)`",
        r"threading\.Thread",
        func=("target", 1),
        handle="thread",
        started_by="start",
        spelled=("Thread",),
        job=("threading", "thread", ("name",)),
        fire_and_forget=True,
        from_entry=True,
    ),
    # A Timer is a Thread that runs its function once, after the interval
    WorkStart(
        "`threading.Timer(...)`",
        r"threading\.Timer",
        func=("function", 1),
        handle="thread",
        started_by="start",
        spelled=("Timer",),
        job=("threading", "thread", ("name",)),
        fire_and_forget=True,
        from_entry=True,
    ),
    # The low-level thread start under threading: it starts at once and gives back no handle to join
    WorkStart(
        "`_thread.start_new_thread()`",
        r"_?thread\.start_new(_thread)?",
        func=("function", 0),
        spelled=("start_new",),
        job=("threading", "thread", ()),
        fire_and_forget=True,
        from_entry=True,
    ),
    # A child process runs the function: background work of the program's, stopped with it
    WorkStart(
        "`multiprocessing.Process(target=...)`",
        r"multiprocessing(\.context|\.get_context\(\))?\.Process",
        func=("target", 1),
        started_by="start",
        spelled=("Process",),
        job=("multiprocessing", "process", ("name",)),
        from_entry=True,
    ),
    WorkStart("`Executor.submit()`", r"concurrent\.futures(\.\w+)*\.(ThreadPoolExecutor|ProcessPoolExecutor)\(\)\.(submit|map)", from_entry=True),
    WorkStart("`Pool.apply_async()`", r"multiprocessing(\.pool)?\.Pool\(\)\.(apply_async|map_async|imap|imap_unordered)", from_entry=True),
    WorkStart("`scheduler.start()`", r"apscheduler(\.\w+)*\.\w*Scheduler\(\)\.(start|start_in_background|run_until_stopped)", from_entry=True),
    WorkStart("`schedule.run_pending()`", r"schedule\.run_pending", from_entry=True),
    WorkStart("`loop.run_forever()`", r"asyncio(\.\w+)*\.(get_event_loop|new_event_loop)\(\)\.run_forever", from_entry=True),
    WorkStart(
        "`BackgroundTasks.add_task()`",
        r"(fastapi|starlette\.background|fastapi\.background)\.BackgroundTasks\(\)\.add_task",
        func=("func", 0),
        spelled=("add_task",),
        fire_and_forget=True,
    ),
    WorkStart("`BackgroundTasks.add_task()`", methods=("add_task",), receiver="background-tasks", func=("func", 0), spelled=("add_task",), fire_and_forget=True),
    WorkStart(
        "`BackgroundTask()`",
        r"starlette\.background\.BackgroundTasks?|fastapi\.BackgroundTasks",
        func=("func", 0),
        spelled=("BackgroundTask",),
        fire_and_forget=True,
    ),
    WorkStart("`loop.call_soon()`", methods=("call_soon",), func=("callback", 0), spelled=("call_soon",), fire_and_forget=True),
    # Tornado's IOLoop runs a callback on the loop, now or after a delay, and PeriodicCallback runs
    # one every N ms once started: work of the process that nothing waits for, as a task is.
    WorkStart(
        "`IOLoop.spawn_callback()`",
        rf"{_TORNADO_LOOP}\.(spawn_callback|add_callback|add_callback_from_signal)",
        func=("callback", 0),
        spelled=("spawn_callback", "add_callback"),
        job=("tornado", "in-process task", ()),
        fire_and_forget=True,
    ),
    WorkStart(
        "`IOLoop.add_timeout()`",
        rf"{_TORNADO_LOOP}\.(add_timeout|call_later|call_at)",
        func=("callback", 1),
        spelled=("add_timeout", "call_later", "call_at"),
        job=("tornado", "in-process task", ()),
        fire_and_forget=True,
    ),
    WorkStart(
        "`PeriodicCallback()`",
        r"tornado\.ioloop\.PeriodicCallback",
        func=("callback", 0),
        started_by="start",
        spelled=("PeriodicCallback",),
        job=("tornado", "in-process task", ()),
    ),
    WorkStart("", r".*\.start_soon", methods=("start_soon",), spelled=("start_soon",), per_item=True),
)

JOB_CALLS = JOB_CALLS + tuple(
    JobSource(
        rf"({start.pattern})$" if not start.any_receiver else rf"(^|.*\.){start.methods[0]}$",
        start.job[0],
        start.job[1],
        ("arg", start.func[1], start.func[0]),
        name_options=start.job[2],
        any_receiver=start.any_receiver,
        awaitable=start.awaitable,
    )
    for start in WORK_STARTS
    if start.job is not None
)
# What an entry point calls to start background work (BG404): the call itself, or the method
# of the instance that starts it.
ENTRY_STARTS = LazyPattern(
    "|".join(f"(?:{s.pattern}){re.escape('().' + s.started_by) if s.started_by else ''}" for s in WORK_STARTS if s.from_entry)
)
# Django's admin runs its add and change views (changeform_view) and its delete view inside
# ``transaction.atomic()`` for every POST: the ModelAdmin methods they call run in that transaction
# (BG604: a task enqueued there can start before the commit). The object is saved by then in all but
# save_model and delete_model, which make the write themselves.
DJANGO_MODEL_ADMINS = frozenset({"django.contrib.admin.ModelAdmin", "django.contrib.admin.options.ModelAdmin"})
ADMIN_METHODS_IN_TRANSACTION = frozenset({
    "save_model", "delete_model", "save_related", "save_formset", "log_addition", "log_change",
    "log_deletion", "response_add", "response_change", "response_delete",
})
ADMIN_METHODS_THAT_WRITE = frozenset({"save_model", "delete_model"})
# Registering a model with an admin site (``admin.site.register(Order)``, ``@admin.register(Order)``):
# its add, change and delete views then save and delete that model inside their transaction. The
# ``register`` of a project's own AdminSite (an instance of a subclass of these) does the same.
DJANGO_ADMIN_REGISTER = frozenset({
    "django.contrib.admin.site.register", "django.contrib.admin.sites.site.register",
    "django.contrib.admin.register", "django.contrib.admin.decorators.register",
})
DJANGO_ADMIN_SITES = frozenset({"django.contrib.admin.AdminSite", "django.contrib.admin.sites.AdminSite"})

# --- Django model signals (BG604: the receivers that run inside a transaction) ----------------
#
# Django sends m2m_changed from a related manager's add(), remove(), set() and clear() inside the
# ``transaction.atomic(savepoint=False)`` they open: its receivers always run in a transaction, and a
# worker started there reads the relation as it was. pre_save and post_save are sent around
# Model.save_base() outside any transaction of Django's own: their receivers run in the transaction of
# whoever saves, so they count only for a model the project saves inside one (the admin, a platform's
# edit views). Canonical signal name -> how its transaction is opened (None: the saver's).
# pre_delete and post_delete are sent inside Collector.delete()'s transaction too, but a task sent
# there is handed ids of rows that are going away: its harm needs a rollback after the signal, which
# blind reviewers of the ecosystem check judged debatable, never real: delete receivers do not count.
DJANGO_MODEL_SIGNALS = {
    "django.db.models.signals.m2m_changed": "a many-to-many add(), remove(), set() or clear()",
    "django.db.models.signals.pre_save": None,
    "django.db.models.signals.post_save": None,
}
DJANGO_DELETE_SIGNALS = frozenset({"django.db.models.signals.pre_delete", "django.db.models.signals.post_delete"})
DJANGO_RECEIVER_DECORATORS = frozenset({"django.dispatch.receiver", "django.dispatch.dispatcher.receiver"})
# A model named by a string (``sender="shop.Order"``) or looked up by one (``apps.get_model("shop", "Order")``).
DJANGO_GET_MODEL = "get_model"

# Platforms whose generic edit views save their model inside ``transaction.atomic()`` on every POST,
# as their REST API viewsets do on create, update and delete (NetBox 2.x-4.x, Nautobot 1.x-2.x): a
# project view class derived from one of these saves the model its ``queryset`` or ``model`` names in
# that transaction, and its form's ``save()`` (``form``, ``model_form``) runs in it.
PLATFORM_EDIT_VIEWS = LazyPattern(
    r"(?P<netbox>netbox\.views\.generic(\.\w+)?\.(ObjectEdit|BulkImport|BulkEdit|BulkCreate|ObjectImport|BulkRename|ComponentCreate|BulkComponentCreate)View"
    r"|utilities\.views\.(ObjectEdit|BulkImport|BulkEdit|BulkCreate|ObjectImport|ComponentCreate|BulkComponentCreate)View"
    r"|netbox\.api\.viewsets(\.\w+)?\.NetBoxModelViewSet)"
    r"|(?P<nautobot>nautobot\.(core|apps)\.views(\.generic)?\.(ObjectEdit|BulkImport|BulkEdit|BulkCreate|ObjectImport|BulkRename|ComponentCreate|BulkComponentCreate)View"
    r"|nautobot\.(core\.views\.viewsets|apps\.views)\.NautobotUIViewSet"
    r"|nautobot\.(core\.api\.views|extras\.api\.views|apps\.api)\.(ModelViewSet|NautobotModelViewSet))"
)
PLATFORM_NAMES = {"netbox": "NetBox", "nautobot": "Nautobot"}
# Under ATOMIC_REQUESTS every view runs in a transaction: a Django or DRF view class derived from one
# of these editing views saves the model its ``queryset`` or ``model`` names there, through its
# ``form_class``.
ATOMIC_REQUESTS_EDIT_VIEWS = LazyPattern(
    r"django\.views\.generic(\.edit)?\.(Create|Update|Delete)View"
    r"|rest_framework\.viewsets\.ModelViewSet"
    r"|rest_framework\.generics\.(Create|Update|Destroy|ListCreate|RetrieveUpdate|RetrieveDestroy|RetrieveUpdateDestroy)APIView"
    r"|rest_framework\.mixins\.(Create|Update|Destroy)ModelMixin"
)
# The class attributes of such a view that name what it saves, and the form it saves through.
EDIT_VIEW_MODEL_ATTRS = ("queryset", "model")
EDIT_VIEW_FORM_ATTRS = ("form", "model_form")
# ``asyncio.run(main())``: a program's entry point (BG404).
ASYNCIO_RUN = frozenset({"asyncio.run", "asyncio.runners.run"})

# --- other linters' codes for the same check ---------------------------------------
# A ``# noqa`` naming one of these silences the bgcheck code too: the maintainer has already
# judged that line for the very same check. Ruff's RUF006 (asyncio-dangling-task) reports an
# ``asyncio.create_task`` / ``ensure_future`` whose task is not kept, as BG602 and BG606 do
# (not BG605's executor futures, which split from BG602 too).
SAME_CHECK_CODES: dict[str, tuple[str, ...]] = {
    "BG602": ("RUF006",),
    "BG606": ("RUF006",),
}
