"""One concept, one table: where two tables used to disagree, the decision and its tests.

``knowledge.LOCK_APIS`` is the only table of distributed locks: the lock model (BG5xx,
``bgcheck jobs``) reads the key and TTL of the rows that say how, and BG205 counts every row as
"this scheduled job takes a lock". Before, BG205 had its own list, which missed dramatiq's
rate limiter, ``redis.lock.Lock`` and pottery's ``@synchronize`` that the lock model knew.
"""

from __future__ import annotations

import pytest

from bgcheck import knowledge
from bgcheck.locks import lock_api, match_api
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
