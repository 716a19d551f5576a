"""One concept, one table: where two tables used to disagree, the decision and its tests.

``knowledge.LOCK_APIS`` is the only table of distributed locks: the lock model (BG5xx,
``bgcheck jobs``) reads the key and TTL of the rows that say how, and BG205 counts every row as
"this scheduled job takes a lock". Before, BG205 had its own list, which missed dramatiq's
rate limiter, ``redis.lock.Lock`` and pottery's ``@synchronize`` that the lock model knew.
"""

from __future__ import annotations

import pytest

from bgcheck import knowledge
from bgcheck.model.locks import lock_api, match_api
from conftest import codes

REPLICAS = 'replicas = 3\n'

SCHEDULED = """
from apscheduler.schedulers.background import BackgroundScheduler
{imports}

scheduler = BackgroundScheduler()

{decorator}
@scheduler.scheduled_job("cron", hour=3)
def send_invoices():
    {body}
"""


@pytest.mark.parametrize(
    "imports, decorator, body",
    [
        ("import dramatiq\nfrom dramatiq.rate_limits.backends import RedisBackend", "",
         'dramatiq.rate_limits.ConcurrentRateLimiter(RedisBackend(), "invoices", limit=1, ttl=600_000)'),
        ("from redis.lock import Lock\nimport redis", "", 'Lock(redis.Redis(), "invoices", timeout=600)'),
        ("from pottery import synchronize", '@synchronize(key="invoices", auto_release_time=600)', "return 1"),
        ("import redis\nr = redis.Redis()", "", 'r.lock("invoices", timeout=600)'),
        ("import redis\nr = redis.Redis()", "", 'r.setnx("invoices", 1)'),
    ],
    ids=["rate-limiter", "redis-lock-class", "pottery-synchronize", "redis-lock", "setnx"],
)
def test_bg205_every_lock_of_the_lock_table_guards_a_scheduled_job(bg, imports, decorator, body):
    found = bg.code(SCHEDULED.format(imports=imports, decorator=decorator, body=body), config=REPLICAS, select=["BG205"])
    assert codes(found) == []


@pytest.mark.parametrize(
    "imports, body",
    [("import threading\nLOCK = threading.Lock()", "with LOCK:\n        return 1"), ("", "return 1")],
    ids=["in-process-lock", "no-lock"],
)
def test_bg205_without_a_distributed_lock_still_flags(bg, imports, body):
    found = bg.code(SCHEDULED.format(imports=imports, decorator="", body=body), config=REPLICAS, select=["BG205"])
    assert codes(found) == [("BG205", 9 + imports.count("\n"))]


def test_lock_rows_the_model_cannot_read_are_locks_but_not_lock_sites():
    assert lock_api("redis.Redis().setnx") is not None and match_api("redis.Redis().setnx") is None
    assert lock_api("proj.db.Database().advisory_lock") is not None and match_api("proj.db.Database().advisory_lock") is None
    assert match_api("dramatiq.rate_limits.ConcurrentRateLimiter").label == "dramatiq ConcurrentRateLimiter"
    assert lock_api("threading.Lock") is None and lock_api("asyncio.Lock().acquire") is None
    # rows the model reads come before the catch-all rows, so a readable lock is never shadowed
    readable = [api.ttl is not None for api in knowledge.LOCK_APIS]
    assert readable == sorted(readable, reverse=True)


# ---------------------------------------------------------------------------
# Starting background work: one table (knowledge.WORK_STARTS) for the job model, BG303, BG404,
# BG601, BG602 and BG605.


def test_every_work_start_row_is_used_and_complete():
    for start in knowledge.WORK_STARTS:
        users = [start.job is not None, start.fire_and_forget, start.per_item, start.discarded is not None, start.from_entry]
        assert any(users), f"{start} is read by nobody"
        assert start.pattern or start.methods, f"{start} matches nothing"
        if start.fire_and_forget or start.job is not None:
            assert start.func is not None, f"{start} does not say where the function it runs is"
        if start.fire_and_forget or start.per_item or start.discarded:
            assert start.spelled, f"{start} gives the rules no word for their relevance test"


def test_the_job_model_reads_its_in_process_jobs_from_the_table():
    derived = [source for source in knowledge.JOB_CALLS if source.framework in ("asyncio", "threading", "concurrent.futures", "tornado", "multiprocessing")]
    assert len(derived) == sum(1 for start in knowledge.WORK_STARTS if start.job is not None)
    assert {source.func[2] for source in derived} == {"coro", "fn", "func", "target", "callback", "function"}
    # a child process runs it: multiprocessing.Process(target=...), ProcessPoolExecutor().submit(fn)
    assert [s.kind for s in derived if s.framework == "multiprocessing"] == ["process", "process"]
    # a row matched by method name on any receiver counts only for a project function
    assert [s.any_receiver for s in derived if s.pattern.startswith("(^|.*\\.)")] == [True, True, True]
    assert not any(s.any_receiver for s in knowledge.JOB_CALLS if s.framework == "Celery beat")


def test_entry_starts_are_the_calls_that_start_the_work():
    assert knowledge.ENTRY_STARTS.fullmatch("threading.Thread().start")
    assert not knowledge.ENTRY_STARTS.fullmatch("threading.Thread")  # made, not started
    assert knowledge.ENTRY_STARTS.fullmatch("threading.Timer().start")
    assert knowledge.ENTRY_STARTS.fullmatch("_thread.start_new_thread")  # starts at once
    assert knowledge.ENTRY_STARTS.fullmatch("thread.start_new_thread")  # Python 2's name, in old code
    assert knowledge.ENTRY_STARTS.fullmatch("concurrent.futures.ThreadPoolExecutor().submit")
    assert not knowledge.ENTRY_STARTS.fullmatch("asyncio.create_task")


def test_bg605_a_plain_function_named_submit_is_no_executor(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/forms.py": "def submit(form):\n    return form\n",
            "app/views.py": "from app.forms import submit\n\ndef post(form):\n    submit(form)\n",
        },
        select=["BG605", "BG303", "BG601"],
    )
    assert codes(found) == []


def test_bg605_on_an_executor_and_not_on_another_submit(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor

        POOL = ThreadPoolExecutor(4)

        def work(form):
            return form

        def post(form, client):
            POOL.submit(work, form)
            client.submit(work, form)
        """,
        select=["BG605"],
    )
    assert codes(found) == [("BG605", 10)]


def test_bg302_executor_made_in_another_module(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/pools.py": "import concurrent.futures\n\nPOOL = concurrent.futures.ThreadPoolExecutor(8)\n",
            "app/jobs.py": """
                from app.pools import POOL

                def handle(line):
                    return line

                def run(path):
                    with open(path) as lines:
                        return list(POOL.map(handle, lines))
                """,
        },
        select=["BG302"],
    )
    assert codes(found) == [("BG302", 9)]


def test_bg502_a_set_call_spaced_out_is_still_seen(bg):
    found = bg.code(
        """
        import redis

        r = redis.Redis()

        def take():
            return r.set (
                "jobs:nightly", 1, nx=True
            )
        """,
        select=["BG502"],
    )
    assert codes(found) == [("BG502", 7)]
