"""Every rule's code, name, severity, summary, preview flag and fix, as data: what `bgcheck rules`
and `bgcheck explain` need, without importing the rules (which pull in libcst).

Written by scripts/rule_table.py from the rule registry; a test checks that they agree.
"""

# (code, name, severity, summary, preview, fix: "safe", "unsafe" or "")
RULES = (
    ('BG001', 'unused-noqa', 'warning',
     "A `# noqa: BGxxx` code silences nothing on its line (off unless selected by its code, as ruff's RUF100).",
     False, 'safe'),
    ('BG101', 'cancellation-swallowed', 'error',
     'A coroutine catches its own cancellation inside a loop and goes round again, so the task never stops.',
     True, 'unsafe'),
    ('BG102', 'broad-except-swallows-cancellation', 'error',
     'A bare `except:` or `except BaseException:` in a coroutine or job code catches the stop request and carries on.',
     True, 'unsafe'),
    ('BG103', 'finally-swallows-cancellation', 'error',
     '`return`, `break` or `continue` in `finally:` in a coroutine or job code discards the in-flight stop request.',
     True, ''),
    ('BG104', 'soft-time-limit-swallowed', 'error',
     'In a Celery task with a soft time limit, `except Exception` / `except SoftTimeLimitExceeded` carries on.',
     False, 'unsafe'),
    ('BG105', 'stop-request-swallowed', 'error',
     'A handler catches a stop request (a cancellation, Ctrl-C, sys.exit()) and returns, converts it or ends its function without re-raising it, so whatever called the work may carry on.',
     True, 'unsafe'),
    ('BG201', 'infinite-loop-in-job', 'error',
     'A `while True` loop with no stop signal in a scheduled job or queued task: the run never ends and cannot be stopped.',
     False, ''),
    ('BG202', 'endless-thread-keeps-process-alive', 'warning',
     'A non-daemon thread whose target loops for ever with no stop signal: the process can never exit on its own.',
     True, ''),
    ('BG203', 'unbounded-wait-in-job', 'warning',
     'A call to another service with no time bound in job code (requests without timeout, httpx with timeout=None, AsyncResult.get(), ...).',
     False, ''),
    ('BG204', 'row-lock-without-skip-locked', 'warning',
     'A batch of rows (a slice, `.first()`, `LIMIT`) locked with `select_for_update()` / `with_for_update()` / `FOR UPDATE` in job code without skip_locked or nowait.',
     True, 'unsafe'),
    ('BG205', 'scheduled-job-without-lock', 'warning',
     'With more than one replica: a scheduled job that runs in every process and takes no distributed lock runs once per replica.',
     False, ''),
    ('BG206', 'unbounded-local-wait-in-job', 'warning',
     'A wait with no time bound in job code for work on this machine (Future.result(), join(), queue.get(), a subprocess, a polling loop without deadline).',
     True, ''),
    ('BG301', 'unbounded-queue', 'warning',
     'A queue created with no maxsize (or maxsize <= 0), or a SimpleQueue: overload becomes memory and lost work.',
     True, ''),
    ('BG302', 'unbounded-executor-map', 'warning',
     '`Executor.map(fn, it)` over an unsized iterable submits every item at once.',
     True, ''),
    ('BG303', 'unbounded-task-fanout', 'warning',
     'A task or future is started per item of a stream with no bound on how many run at once.',
     True, ''),
    ('BG304', 'work-dropped-when-full', 'warning',
     '`except queue.Full` / `asyncio.QueueFull` that drops the item silently.',
     True, ''),
    ('BG401', 'executor-never-shut-down', 'warning',
     'A `multiprocessing` pool kept in a global or attribute that nothing in the project closes: at exit it is terminated, its running tasks killed and the queued ones dropped.',
     True, ''),
    ('BG402', 'shutdown-without-wait', 'error',
     '`shutdown(wait=False)`, `Pool.terminate()` or `task.cancel()` that abandons in-flight work.',
     True, ''),
    ('BG403', 'daemon-thread-does-durable-work', 'warning',
     'A daemon thread whose target commits, publishes, enqueues or moves money: it is killed mid-write at exit.',
     True, ''),
    ('BG404', 'no-sigterm-handler', 'error',
     'An entry point starts background work and no SIGTERM handler is installed: a deploy kills it mid-work.',
     True, ''),
    ('BG405', 'unbounded-wait-in-shutdown', 'warning',
     'A wait with no deadline in a SIGTERM handler, atexit hook or shutdown hook.',
     True, ''),
    ('BG406', 'shutdown-budget-exceeded', 'error',
     'With grace-period configured: the explicit waits on a shutdown path add up to more than the grace period.',
     False, ''),
    ('BG501', 'lock-ttl-shorter-than-runtime', 'error',
     "A lock's TTL is shorter than the measured runtime (or declared limit) of the job that holds it.",
     False, ''),
    ('BG502', 'lock-without-ttl', 'error',
     'A distributed lock acquired with no expiry: a killed holder blocks the job for ever.',
     False, ''),
    ('BG503', 'lock-released-without-ownership-check', 'error',
     "A lock's key is deleted directly (`redis.delete(key)`), releasing whoever holds it now.",
     True, ''),
    ('BG601', 'money-in-fire-and-forget', 'error',
     'A money-moving call runs in a fire-and-forget context (a task, pool, thread or background task) that a stop loses.',
     False, ''),
    ('BG602', 'task-result-discarded', 'warning',
     'The task returned by create_task / ensure_future is thrown away: it can be collected mid-run.',
     True, ''),
    ('BG603', 'money-task-acks-early', 'error',
     'A Celery task that moves money acknowledges its message before it runs (no acks_late).',
     False, 'unsafe'),
    ('BG604', 'publish-inside-transaction', 'error',
     'A message is published or a task enqueued inside an open database transaction.',
     True, 'unsafe'),
    ('BG605', 'executor-future-discarded', 'warning',
     'The future returned by Executor.submit / run_in_executor is thrown away: its exception is never seen.',
     True, ''),
)

# A rule split off another: its code -> the code its findings had before. A suppression, an
# ignore/select entry or a baseline entry of the old code still covers them (former_codes).
SPLIT_FROM = {
    'BG105': 'BG101',
    'BG206': 'BG203',
    'BG605': 'BG602',
}


def former_codes(code: str) -> tuple[str, ...]:
    """The codes ``code``'s findings were reported under before splits, nearest first."""
    found = []
    while code in SPLIT_FROM and SPLIT_FROM[code] not in found:
        code = SPLIT_FROM[code]
        found.append(code)
    return tuple(found)
