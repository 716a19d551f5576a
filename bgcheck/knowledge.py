"""Framework knowledge, as data.

Every fact a rule needs about a library (which exception means
cancellation, which decorator makes a Celery task, which setting holds a
soft time limit) lives here, keyed by qualified name as the project index
resolves it. Adding a library should mean adding rows here, not a visitor.

Naming convention: ``pkg.Class()`` stands for "an instance of pkg.Class",
so ``celery.Celery().task`` is the ``task`` method of any Celery app.
Sources for every fact: ``shared/docs/framework-facts.md``.
"""

from __future__ import annotations

# --- cancellation (BG101) ---------------------------------------------------

# Exception classes that carry a stop request. Value: how to describe it.
CANCELLATION_EXCEPTIONS: dict[str, str] = {
    "asyncio.CancelledError": "asyncio.CancelledError",
    "asyncio.exceptions.CancelledError": "asyncio.CancelledError",
    "concurrent.futures.CancelledError": "concurrent.futures.CancelledError",
    "concurrent.futures._base.CancelledError": "concurrent.futures.CancelledError",
    "trio.Cancelled": "trio.Cancelled",
    "trio._core._exceptions.Cancelled": "trio.Cancelled",
    "InterruptedError": "InterruptedError",
    "KeyboardInterrupt": "KeyboardInterrupt",
    "SystemExit": "SystemExit",
    "builtins.InterruptedError": "InterruptedError",
    "builtins.KeyboardInterrupt": "KeyboardInterrupt",
    "builtins.SystemExit": "SystemExit",
}

# Calls that return the running backend's cancellation class:
# ``except anyio.get_cancelled_exc_class():``.
CANCELLATION_CLASS_FACTORIES: dict[str, str] = {
    "anyio.get_cancelled_exc_class": "anyio's cancellation exception",
}

# Process-level interrupts: catching them at the top of a program, around
# main(), and then exiting is the normal way to end on Ctrl-C.
PROCESS_INTERRUPTS = frozenset({"KeyboardInterrupt", "SystemExit"})

# EINTR: since PEP 475 the interpreter retries interrupted system calls
# itself; a loop that retries on InterruptedError is the legacy EINTR idiom.
EINTR = "InterruptedError"

# --- broad handlers (BG102, BG104) -----------------------------------------

BASE_EXCEPTION = frozenset({"BaseException", "builtins.BaseException"})
EXCEPTION = frozenset({"Exception", "builtins.Exception"})

# Calls that end the process: a handler that makes one does not "carry on".
PROCESS_EXIT_CALLS = frozenset({"sys.exit", "os._exit", "os.abort", "exit", "quit", "builtins.exit", "builtins.quit"})

# --- Celery (BG104, and the job model) -------------------------------------

CELERY_APP_CLASSES = frozenset({"celery.Celery", "celery.app.Celery", "celery.app.base.Celery"})
# Decorators that turn a function into a Celery task.
CELERY_TASK_DECORATORS = frozenset(
    {f"{app}().task" for app in CELERY_APP_CLASSES}
    | {"celery.shared_task", "celery.app.shared_task", "celery.app.task.shared_task"}
)
CELERY_TASK_BASES = frozenset({"celery.Task", "celery.app.task.Task", "celery.app.Task"})

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

# Task decorator options that set a per-task value of a setting.
CELERY_TASK_OPTIONS: dict[str, str] = {
    "soft_time_limit": "task_soft_time_limit",
    "time_limit": "task_time_limit",
    "acks_late": "task_acks_late",
    "reject_on_worker_lost": "task_reject_on_worker_lost",
}

# --- what the summary records ----------------------------------------------

# Calls recorded with their arguments (by the last name in the called
# expression), for models that need more than "who calls whom".
RECORDED_CALL_NAMES = frozenset({"update", "config_from_object"})
