"""BG501-BG503: distributed locks.

Each test is one shape the rule must flag or must not flag, and one fact of a
lock API from ``knowledge.LOCK_APIS`` (parameter names, units, defaults). Sources start with a newline, so line 1 is empty and
the first line of code is line 2. Runtimes come from ``[tool.bgcheck.runtimes]``
or from a file written inside the project (``runtimes-file``).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bgcheck.cli import main
from conftest import codes, write_project

CELERY_HEAD = """
    import redis
    from celery import Celery

    app = Celery("proj")
    r = redis.Redis()
"""


def runtimes(**seconds) -> str:
    """``[tool.bgcheck.runtimes]`` with quoted keys (job names have dots)."""
    lines = "".join(f'"{key.replace("__", ".")}" = {value!r}\n' for key, value in seconds.items())
    return "[tool.bgcheck.runtimes]\n" + lines


def runtimes_table(table: dict) -> str:
    return "[tool.bgcheck.runtimes]\n" + "".join(f"{json.dumps(k)} = {json.dumps(v)}\n" for k, v in table.items())


def only(found, code):
    return [d for d in found if d.code == code]


# ---------------------------------------------------------------------------
# BG501 lock-ttl-shorter-than-runtime: where the runtime comes from


def test_bg501_redis_lock_timeout_against_configured_runtime(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    @app.task
    def nightly():
        with r.lock("reports:nightly", timeout=60):
            pass
"""
        },
        config=runtimes_table({"jobs.nightly": 300}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 10)]
    assert found[0].message == "Lock `reports:nightly` expires after 60 s, but `nightly` runs 300 s (measured)"
    message = found[0].explanation
    assert "held by `jobs.nightly`" in message
    assert "measured 300 s in [tool.bgcheck.runtimes] in pyproject.toml" in message
    assert "redis-py lock(), timeout=60" in message


def test_bg501_runtime_from_csv_names_the_file_and_line(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    @app.task
    def nightly():
        with r.lock("reports:nightly", timeout=60):
            pass
""",
            "ops/job-runtimes.csv": "job,seconds\nsomething.else,5\njobs.nightly,5m\n",
        },
        config='runtimes-file = "ops/job-runtimes.csv"\n',
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 10)]
    assert "measured 300 s in ops/job-runtimes.csv line 3" in found[0].explanation


def test_bg501_runtime_from_json_names_the_entry(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    @app.task
    def nightly():
        with r.lock("reports:nightly", timeout=60):
            pass
""",
            "ops/runtimes.json": json.dumps({"jobs.nightly": "PT2M"}),
        },
        config='runtimes-file = "ops/runtimes.json"\n',
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 10)]
    assert "measured 120 s in ops/runtimes.json entry 'jobs.nightly'" in found[0].explanation


def test_bg501_runtime_from_prometheus_result(bg):
    result = {
        "status": "success",
        "data": {
            "resultType": "vector",
            "result": [{"metric": {"task_name": "jobs.nightly", "instance": "w1"}, "value": [1764500000.0, "95.5"]}],
        },
    }
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    @app.task
    def nightly():
        with r.lock("reports:nightly", timeout=60):
            pass
""",
            "ops/prom.json": json.dumps(result),
        },
        config='runtimes-file = "ops/prom.json"\n',
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 10)]
    assert "measured 95.5 s in ops/prom.json result[0] (jobs.nightly)" in found[0].explanation


# ---------------------------------------------------------------------------
# BG501: each API, its parameter, unit and default


def test_bg501_redis_set_nx_ex_seconds_px_milliseconds_and_timedelta(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    from datetime import timedelta

    @app.task
    def sweep():
        r.set("a", 1, nx=True, ex=30)
        r.set("b", 1, nx=True, px=30000)
        r.set("c", 1, nx=True, ex=timedelta(minutes=1))
        r.set("d", 1, nx=True, px=timedelta(seconds=90))
        r.set("e", 1, nx=True, px=150_000)
        r.set("f", 1, nx=True, ex=150)
"""
        },
        config=runtimes_table({"jobs.sweep": 120}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 12), ("BG501", 13), ("BG501", 14), ("BG501", 15)]
    assert "expires after 30 s (redis set(nx=True), ex=30)" in found[0].explanation
    assert "expires after 30 s (redis set(nx=True), px=30000)" in found[1].explanation
    assert "expires after 60 s" in found[2].message
    assert "expires after 90 s" in found[3].message


def test_bg501_redis_lock_positional_timeout_and_lock_class(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    from redis.lock import Lock

    @app.task
    def sweep():
        r.lock("a", 30)
        Lock(r, "b", 45)
        Lock(r, "c", timeout=45.5)
"""
        },
        config=runtimes_table({"jobs.sweep": 120}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 12), ("BG501", 13), ("BG501", 14)]
    assert "expires after 45.5 s" in found[2].message


def test_bg501_redis_client_from_url_in_another_module(bg):
    found = bg.files(
        {
            "clients.py": "import redis\nr = redis.Redis.from_url('redis://localhost')\n",
            "jobs.py": """
    from celery import Celery
    from clients import r

    app = Celery("proj")

    @app.task
    def sweep():
        with r.lock("sweep", timeout=10):
            pass
""",
        },
        config=runtimes_table({"jobs.sweep": 20}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 9)]


def test_bg501_python_redis_lock_expire_seconds(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    import redis_lock

    @app.task
    def sweep():
        with redis_lock.Lock(r, "a", expire=60):
            pass
        with redis_lock.Lock(r, "b", 30):
            pass
        with redis_lock.Lock(r, "c", expire=600):
            pass
"""
        },
        config=runtimes_table({"jobs.sweep": 120}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 12), ("BG501", 14)]
    assert "python-redis-lock Lock(), expire=60" in found[0].explanation


def test_bg501_python_redis_lock_auto_renewal_is_never_flagged(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    import redis_lock

    @app.task
    def sweep():
        with redis_lock.Lock(r, "a", expire=5, auto_renewal=True):
            pass
"""
        },
        config=runtimes_table({"jobs.sweep": 3600}),
        select=["BG5"],
    )
    assert codes(found) == []


@pytest.mark.parametrize(
    "call",
    [
        'Redlock(key="sweep", masters={r})',
        'AIORedlock(key="sweep", masters={r})',
    ],
)
def test_bg501_pottery_default_is_10_seconds(bg, call):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + f"""
    from pottery import AIORedlock, Redlock

    @app.task
    def sweep():
        lock = {call}
"""
        },
        config=runtimes_table({"jobs.sweep": 30}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 12)]
    assert "expires after 10 s (pottery Redlock, default 10 s)" in found[0].explanation


def test_bg501_pottery_auto_release_time_and_synchronize(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    from pottery import Redlock, synchronize

    @app.task
    def sweep():
        Redlock(key="a", masters={r}, auto_release_time=20)
        Redlock(key="b", masters={r}, auto_release_time=60)

    @app.task
    @synchronize(key="c", masters={r}, auto_release_time=15)
    def other():
        pass
"""
        },
        config=runtimes_table({"jobs.sweep": 30, "jobs.other": 30}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 12), ("BG501", 16)]
    assert "pottery synchronize, auto_release_time=15" in found[1].explanation


def test_bg501_sherlock_default_is_60_seconds(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    import sherlock
    from sherlock.lock import RedisLock

    @app.task
    def sweep():
        with sherlock.Lock("a"):
            pass
        with RedisLock("b", client=r, expire=300):
            pass
        with sherlock.RedisLock("c", client=r, expire=30):
            pass
"""
        },
        config=runtimes_table({"jobs.sweep": 120}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 13), ("BG501", 17)]
    assert "sherlock Lock, default 60 s" in found[0].explanation


def test_bg501_sherlock_configure_makes_the_default_unknown(bg):
    # sherlock.configure(expire=...) changes the global default: 60 s would be a guess.
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    import sherlock

    sherlock.configure(expire=600)

    @app.task
    def sweep():
        with sherlock.Lock("a"):
            pass
"""
        },
        config=runtimes_table({"jobs.sweep": 120}),
        select=["BG5"],
    )
    assert codes(found) == []


def test_bg501_django_cache_add_default_300(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    from django.core.cache import cache

    @app.task
    def sweep():
        cache.add("a", 1)
        cache.add("b", 1, 60)
        cache.add("c", 1, timeout=900)
"""
        },
        config=runtimes_table({"jobs.sweep": 600}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 12), ("BG501", 13)]
    assert "expires after 300 s (Django cache.add(), default 300 s)" in found[0].explanation


def test_bg501_django_cache_add_default_from_caches_setting(bg):
    found = bg.files(
        {
            "settings.py": """
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "TIMEOUT": 60}}
""",
            "jobs.py": CELERY_HEAD
            + """
    from django.core.cache import cache

    @app.task
    def sweep():
        cache.add("a", 1)
""",
        },
        config=runtimes_table({"jobs.sweep": 200}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 12)]
    assert "expires after 60 s" in found[0].message
    assert "CACHES['default']['TIMEOUT']=60 in settings.py" in found[0].explanation


def test_bg501_celery_once_timeout_and_default(bg):
    found = bg.files(
        {
            "jobs.py": """
    from celery import Celery
    from celery_once import QueueOnce

    app = Celery("proj")

    @app.task(base=QueueOnce, once={"timeout": 60})
    def short():
        pass

    @app.task(base=QueueOnce)
    def long():
        pass

    @app.task(base=QueueOnce)
    def fine():
        pass
"""
        },
        config=runtimes_table({"jobs.short": 120, "jobs.long": 4000, "jobs.fine": 1000}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 7), ("BG501", 11)]
    assert "expires after 60 s (celery_once QueueOnce, once timeout=60)" in found[0].explanation
    assert "expires after 3600 s (celery_once QueueOnce, celery_once default 3600 s)" in found[1].explanation


def test_bg501_celery_once_default_timeout_setting(bg):
    found = bg.files(
        {
            "jobs.py": """
    from celery import Celery
    from celery_once import QueueOnce

    app = Celery("proj")
    app.conf.ONCE = {"backend": "celery_once.backends.Redis", "settings": {"default_timeout": 60}}

    @app.task(base=QueueOnce)
    def sweep():
        pass
"""
        },
        config=runtimes_table({"jobs.sweep": 120}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 8)]
    assert "expires after 60 s" in found[0].message
    assert "default_timeout=60" in found[0].explanation


def test_bg501_huey_lock_task_ttl(bg):
    found = bg.files(
        {
            "jobs.py": """
    from huey import RedisHuey

    huey = RedisHuey("proj")

    @huey.task()
    def sweep():
        with huey.lock_task("sweep", ttl=30):
            pass

    @huey.periodic_task(lambda dt: True)
    @huey.lock_task("report", ttl=45)
    def report():
        pass
"""
        },
        config=runtimes_table({"jobs.sweep": 60, "jobs.report": 60}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 8), ("BG501", 12)]
    assert "huey lock_task(), ttl=30" in found[0].explanation


def test_bg501_djhuey_lock_task(bg):
    found = bg.files(
        {
            "jobs.py": """
    from huey.contrib.djhuey import db_task, lock_task

    @db_task()
    def sweep():
        with lock_task("sweep", ttl=30):
            pass
"""
        },
        config=runtimes_table({"jobs.sweep": 60}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 6)]


def test_bg501_dramatiq_concurrent_rate_limiter_ttl_is_milliseconds(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    from dramatiq.rate_limits import ConcurrentRateLimiter
    from dramatiq.rate_limits.backends import RedisBackend

    backend = RedisBackend()

    @app.task
    def sweep():
        with ConcurrentRateLimiter(backend, "a", limit=1, ttl=60_000).acquire():
            pass
        with ConcurrentRateLimiter(backend, "b").acquire():
            pass
"""
        },
        config=runtimes_table({"jobs.sweep": 120}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 15)]
    assert "expires after 60 s (dramatiq ConcurrentRateLimiter, ttl=60000)" in found[0].explanation


def test_bg501_dramatiq_default_ttl_is_900_seconds(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    from dramatiq.rate_limits import ConcurrentRateLimiter

    @app.task
    def sweep():
        ConcurrentRateLimiter(None, "b")
"""
        },
        config=runtimes_table({"jobs.sweep": 1000}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 12)]
    assert "expires after 900 s (dramatiq ConcurrentRateLimiter, default 900 s)" in found[0].explanation


def test_bg501_ttl_from_constants_in_another_module(bg):
    found = bg.files(
        {
            "settings.py": """
    LOCK_TTL = 60
    LOCK_TTL_MS = LOCK_TTL * 1000
""",
            "jobs.py": CELERY_HEAD
            + """
    import settings
    from settings import LOCK_TTL, LOCK_TTL_MS

    @app.task
    def sweep():
        r.lock("a", timeout=LOCK_TTL)
        r.lock("b", timeout=settings.LOCK_TTL * 2)
        r.lock("c", timeout=settings.LOCK_TTL)
        r.set("d", 1, nx=True, px=LOCK_TTL_MS)
""",
        },
        config=runtimes_table({"jobs.sweep": 100}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 13), ("BG501", 15), ("BG501", 16)]
    assert "expires after 60 s (redis-py lock(), timeout=60)" in found[0].explanation
    assert "expires after 60 s (redis set(nx=True), px=60000)" in found[2].explanation


def test_bg501_timedelta_ttl_from_a_constant_in_another_module(bg):
    found = bg.files(
        {
            "settings.py": """
    from datetime import timedelta

    LOCK_TD = timedelta(minutes=1)
""",
            "jobs.py": CELERY_HEAD
            + """
    from settings import LOCK_TD

    @app.task
    def sweep():
        r.set("d", 1, nx=True, ex=LOCK_TD)
""",
        },
        config=runtimes_table({"jobs.sweep": 100}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 12)]
    assert "expires after 60 s" in found[0].message


# ---------------------------------------------------------------------------
# BG501: declared limits, margin, holders


def test_bg501_declared_celery_time_limit(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    @app.task(time_limit=90)
    def hard():
        with r.lock("a", timeout=60):
            pass

    @app.task(soft_time_limit=120)
    def soft():
        with r.lock("b", timeout=60):
            pass

    @app.task(time_limit=30)
    def fits():
        with r.lock("c", timeout=60):
            pass
"""
        },
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 10), ("BG501", 15)]
    assert "may run up to 90 s (declared time_limit=90)" in found[0].explanation
    assert "declared soft_time_limit=120" in found[1].explanation


def test_bg501_declared_celery_time_limit_from_app_config(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    app.conf.task_time_limit = 600

    @app.task
    def sweep():
        with r.lock("a", timeout=60):
            pass
"""
        },
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 12)]
    assert "declared time_limit=600" in found[0].explanation


def test_bg501_declared_arq_timeout(bg):
    found = bg.files(
        {
            "worker.py": """
    import redis.asyncio
    from arq.worker import func

    r = redis.asyncio.Redis()

    async def rebuild(ctx):
        async with r.lock("rebuild", timeout=60):
            pass

    class WorkerSettings:
        functions = [func(rebuild, timeout=300)]
"""
        },
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 8)]
    assert "declared timeout=300" in found[0].explanation


def test_bg501_lock_ttl_margin(bg):
    source = {
        "jobs.py": CELERY_HEAD
        + """
    @app.task
    def sweep():
        with r.lock("a", timeout=100):
            pass
        with r.lock("b", timeout=130):
            pass
"""
    }
    found = bg.files(source, config="lock-ttl-margin = 1.5\n" + runtimes_table({"jobs.sweep": 80}), select=["BG5"])
    assert codes(found) == [("BG501", 10)]
    assert "runs 80 s x margin 1.5 = 120 s" in found[0].explanation
    assert "measured 80 s" in found[0].explanation
    # without a margin, 100 s outlasts 80 s
    assert codes(bg.files(source, config=runtimes_table({"jobs.sweep": 80}), select=["BG5"])) == []


def test_bg501_lock_taken_in_helper_called_by_job(bg):
    found = bg.files(
        {
            "locking.py": """
    import redis

    r = redis.Redis()

    def exclusive(name):
        return r.lock("exclusive:" + name, timeout=30)

    def guarded():
        with r.lock("guarded", timeout=30):
            work()

    def work():
        pass
""",
            "jobs.py": """
    from celery import Celery
    import locking

    app = Celery("proj")

    @app.task(name="reports.build")
    def build():
        locking.guarded()
""",
        },
        config=runtimes_table({"reports.build": 120}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 10)]
    assert found[0].location.path == "locking.py"
    assert "held by `reports.build`" in found[0].explanation


def test_bg501_helper_shared_by_two_jobs_uses_each_jobs_runtime(bg):
    # The helper is reached first from `a_fast`; the slow job that also calls it must count.
    found = bg.files(
        {
            "helpers.py": """
    import redis

    r = redis.Redis()

    def locked_step():
        with r.lock("step", timeout=60):
            pass
""",
            "jobs.py": """
    from celery import Celery
    import helpers

    app = Celery("proj")

    @app.task
    def a_fast():
        helpers.locked_step()

    @app.task
    def b_slow():
        helpers.locked_step()
""",
        },
        config=runtimes_table({"jobs.a_fast": 10, "jobs.b_slow": 600}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 7)]
    assert "held by `jobs.b_slow`" in found[0].explanation
    assert "measured 600 s" in found[0].explanation


def test_bg501_runtime_keyed_by_scheduler_job_id(bg):
    found = bg.files(
        {
            "clock.py": """
    import redis
    from apscheduler.schedulers.blocking import BlockingScheduler

    r = redis.Redis()
    sched = BlockingScheduler()

    @sched.scheduled_job("interval", minutes=5, id="heartbeat")
    def beat():
        with r.lock("beat", timeout=30):
            pass
"""
        },
        config=runtimes_table({"heartbeat": 45}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 10)]
    assert "held by `heartbeat`" in found[0].explanation


def test_bg501_runtime_keyed_by_lock_key_and_key_pattern(bg):
    found = bg.files(
        {
            "jobs.py": """
    import redis

    r = redis.Redis()

    def plain():
        with r.lock("reports:nightly", timeout=60):
            pass

    def per_day(day):
        with r.lock(f"report:{day}", timeout=60):
            pass
"""
        },
        config=runtimes_table({"reports:nightly": 90, "report:2026-11-30": 75}),
        select=["BG5"],
    )
    assert codes(found) == [("BG501", 7), ("BG501", 11)]
    assert "measured 90 s" in found[0].explanation
    assert "measured 75 s" in found[1].explanation


# ---------------------------------------------------------------------------
# BG501: must not flag


def test_bg501_not_when_ttl_covers_runtime(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    @app.task(time_limit=300)
    def sweep():
        with r.lock("a", timeout=300):
            pass
        with r.lock("b", timeout=600):
            pass
"""
        },
        config=runtimes_table({"jobs.sweep": 300}),
        select=["BG5"],
    )
    assert codes(found) == []


def test_bg501_not_when_ttl_does_not_fold(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    import os
    from datetime import timedelta

    def ttl_for(job):
        return 30

    @app.task(time_limit=900)
    def sweep(ttl):
        r.lock("a", timeout=ttl)
        r.lock("b", timeout=int(os.environ["LOCK_TTL"]))
        r.lock("c", timeout=ttl_for("sweep"))
        r.set("d", 1, nx=True, exat=1764500000)
"""
        },
        config=runtimes_table({"jobs.sweep": 600}),
        select=["BG5"],
    )
    assert codes(found) == []


def test_bg501_not_without_runtime_or_limit(bg):
    found = bg.files(
        {
            "jobs.py": CELERY_HEAD
            + """
    @app.task
    def sweep():
        with r.lock("a", timeout=1):
            pass
"""
        },
        select=["BG5"],
    )
    assert codes(found) == []


def test_bg501_verbose_says_why_a_ttl_was_not_folded(tmp_path, monkeypatch):
    write_project(
        tmp_path,
        {
            "jobs.py": CELERY_HEAD
            + """
    @app.task
    def sweep(ttl):
        r.lock("a", timeout=ttl)
"""
        },
        runtimes_table({"jobs.sweep": 600}),
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", ".", "--verbose", "--no-cache"])
    assert result.exit_code == 0
    assert "does not fold" in result.output


# ---------------------------------------------------------------------------
# BG502 lock-without-ttl


def test_bg502_every_api_without_expiry(bg):
    found = bg.files(
        {
            "jobs.py": """
    import redis
    import redis_lock
    from django.core.cache import cache
    from huey import RedisHuey
    from redis.lock import Lock

    r = redis.Redis()
    huey = RedisHuey("proj")

    def take():
        r.lock("a")
        r.lock("b", timeout=None)
        r.lock("c", timeout=0)
        Lock(r, "d")
        r.set("e", 1, nx=True)
        redis_lock.Lock(r, "f")
        redis_lock.Lock(r, "g", expire=0)
        cache.add("h", 1, timeout=None)
        cache.add("i", 1, None)
        cache.lock("j")
        with huey.lock_task("k"):
            pass
"""
        },
        select=["BG5"],
    )
    assert codes(found) == [("BG502", line) for line in (12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22)]
    messages = [d.message for d in found]
    assert "Lock `a` never expires (redis-py lock(), no timeout)" in messages[0]
    assert "redis-py lock(), timeout=0" in messages[2]
    assert "redis set(nx=True), no ex/px" in messages[4]
    assert "Django cache.add(), timeout=None" in messages[7]
    assert "huey lock_task(), no ttl" in messages[10]


def test_bg502_django_cache_add_when_caches_timeout_is_none(bg):
    found = bg.files(
        {
            "settings.py": 'CACHES = {"default": {"BACKEND": "django_redis.cache.RedisCache", "TIMEOUT": None}}\n',
            "jobs.py": """
    from django.core.cache import cache

    def take():
        cache.add("a", 1)
""",
        },
        select=["BG5"],
    )
    assert codes(found) == [("BG502", 5)]


def test_bg502_not_with_expiry_in_process_locks_or_plain_set(bg):
    found = bg.files(
        {
            "jobs.py": """
    import asyncio
    import multiprocessing
    import threading

    import redis
    import redis_lock
    import sherlock
    from django.core.cache import cache
    from huey import RedisHuey
    from pottery import Redlock

    r = redis.Redis()
    huey = RedisHuey("proj")

    def take():
        threading.Lock()
        threading.RLock()
        asyncio.Lock()
        multiprocessing.Lock()
        r.set("a", 1)
        r.set("b", 1, nx=False)
        r.set("c", 1, xx=True)
        r.lock("d", timeout=10)
        redis_lock.Lock(r, "e", expire=10)
        Redlock(key="f", masters={r})
        Redlock(key="g", masters={r}, auto_release_time=0)
        Redlock(key="h", masters={r}, auto_release_time=None)
        sherlock.Lock("i")
        cache.add("j", 1)
        cache.add("k", 1, timeout=0)
        with huey.lock_task("l", ttl=10):
            pass
"""
        },
        select=["BG5"],
    )
    assert codes(found) == []


# ---------------------------------------------------------------------------
# BG503 lock-released-without-ownership-check


def test_bg503_delete_of_lock_key_in_sigterm_handler(bg):
    found = bg.files(
        {
            "clients.py": "import redis\nr = redis.Redis()\nLOCK_KEY = 'reports:nightly'\n",
            "jobs.py": """
    from celery import Celery
    from clients import LOCK_KEY, r

    app = Celery("proj")

    @app.task
    def nightly():
        with r.lock(LOCK_KEY, timeout=600):
            pass
""",
            "shutdown.py": """
    import signal
    import sys

    from clients import LOCK_KEY, r

    def on_term(signum, frame):
        r.delete(LOCK_KEY)
        sys.exit(0)

    signal.signal(signal.SIGTERM, on_term)
""",
        },
        select=["BG503"],
    )
    assert codes(found) == [("BG503", 8)]
    assert found[0].location.path == "shutdown.py"
    assert found[0].message == "`delete()` of lock key `reports:nightly` in a shutdown path releases it without checking the owner"


def test_bg503_fstring_key_patterns(bg):
    found = bg.files(
        {
            "jobs.py": """
    import redis

    r = redis.Redis()

    def sync(uid):
        with r.lock(f"user:{uid}:sync", timeout=60):
            pass

    def reset(uid):
        r.delete(f"user:{uid}:sync")
        r.delete("user:42:sync")
        r.unlink("user:42:other")
        r.delete(f"{uid}")
        r.hdel("locks", "user:7:sync")
        r.hdel("user:7:sync", "field")
"""
        },
        select=["BG503"],
    )
    assert codes(found) == [("BG503", 11), ("BG503", 12), ("BG503", 15)]
    assert "`user:*:sync`" in found[0].message


def test_bg503_cache_delete_of_lock_key(bg):
    found = bg.files(
        {
            "jobs.py": """
    from django.core.cache import cache

    LOCK = "import-lock"

    def run_import():
        if cache.add(LOCK, 1, 600):
            try:
                pass
            finally:
                cache.delete(LOCK)

    def reset():
        lock_key = "import-lock"
        cache.delete(lock_key)
        cache.delete("other-key")
"""
        },
        select=["BG503"],
    )
    assert codes(found) == [("BG503", 11), ("BG503", 15)]


def test_bg503_python_redis_lock_key_is_stored_with_prefix(bg):
    found = bg.files(
        {
            "jobs.py": """
    import redis
    import redis_lock

    r = redis.Redis()

    def take():
        with redis_lock.Lock(r, "reports", expire=60):
            pass

    def force_release():
        r.delete("lock:reports")
"""
        },
        select=["BG503"],
    )
    assert codes(found) == [("BG503", 12)]


def test_bg503_not_release_unrelated_keys_or_compare_and_delete(bg):
    found = bg.files(
        {
            "jobs.py": """
    import redis

    r = redis.Redis()
    RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end"

    def take():
        lock = r.lock("reports", timeout=60)
        lock.acquire()
        try:
            pass
        finally:
            lock.release()

    def cleanup(token):
        r.delete("reports:cache")
        r.delete("other")
        r.eval(RELEASE, 1, "reports", token)
"""
        },
        select=["BG503"],
    )
    assert codes(found) == []


def test_bg503_not_without_any_lock_in_the_project(bg):
    found = bg.files(
        {
            "jobs.py": """
    import redis

    r = redis.Redis()

    def cleanup():
        r.delete("reports")
"""
        },
        select=["BG503"],
    )
    assert codes(found) == []


# ---------------------------------------------------------------------------
# bgcheck jobs: each job's locks, with TTL and runtime


def _cli(tmp_path, monkeypatch, args, files, config=""):
    write_project(tmp_path, files, config)
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(main, args)


def test_jobs_json_shows_lock_ttl_and_runtime(tmp_path, monkeypatch):
    result = _cli(
        tmp_path,
        monkeypatch,
        ["jobs", ".", "--format", "json", "--runtimes", "ops/runtimes.csv", "--no-cache"],
        {
            "helpers.py": """
    import redis

    r = redis.Redis()

    def locked():
        with r.lock("reports:nightly", timeout=60):
            pass
""",
            "jobs.py": """
    from celery import Celery
    import helpers

    app = Celery("proj")

    @app.task
    def nightly():
        helpers.locked()
""",
            "ops/runtimes.csv": "job,seconds\njobs.nightly,5m\n",
        },
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    (job,) = [j for j in document["jobs"] if j["name"] == "jobs.nightly"]
    (lock,) = job["locks"]
    assert lock["key"] == "reports:nightly"
    assert lock["ttl_seconds"] == 60
    assert lock["never_expires"] is False
    assert lock["function"] == "helpers.locked"
    assert lock["runtime_seconds"] == 300
    assert lock["runtime_source"] == "ops/runtimes.csv line 2"


def test_jobs_json_lists_a_decorator_lock_once(tmp_path, monkeypatch):
    result = _cli(
        tmp_path,
        monkeypatch,
        ["jobs", ".", "--format", "json", "--no-cache"],
        {
            "jobs.py": """
    import redis
    from celery import Celery
    from pottery import synchronize

    app = Celery("proj")
    r = redis.Redis()

    @app.task
    @synchronize(key="nightly", masters={r}, auto_release_time=120)
    def nightly():
        pass
""",
        },
    )
    assert result.exit_code == 0, result.output
    (job,) = json.loads(result.stdout)["jobs"]
    assert [(lock["key"], lock["ttl_seconds"]) for lock in job["locks"]] == [("nightly", 120)]


def test_jobs_json_says_why_a_ttl_is_unknown(tmp_path, monkeypatch):
    result = _cli(
        tmp_path,
        monkeypatch,
        ["jobs", ".", "--format", "json", "--no-cache"],
        {
            "jobs.py": CELERY_HEAD
            + """
    @app.task
    def nightly(ttl):
        with r.lock("reports:nightly", timeout=ttl):
            pass
""",
        },
    )
    assert result.exit_code == 0, result.output
    (job,) = json.loads(result.stdout)["jobs"]
    (lock,) = job["locks"]
    assert lock["ttl_seconds"] is None
    assert "does not fold" in lock["ttl_note"]


def test_bg503_not_when_deleted_only_before_the_deadline_taken_with_the_ttl(bg):
    # The holder deletes its key only while the deadline it computed from the TTL has not
    # passed: the key is still its own.
    found = bg.files(
        {
            "jobs.py": """
    import time

    import redis

    r = redis.Redis()
    TTL = 600

    def settle():
        deadline = time.monotonic() + TTL
        if r.set("settle-lock", "1", nx=True, ex=TTL):
            try:
                pass
            finally:
                if time.monotonic() < deadline:
                    r.delete("settle-lock")
"""
        },
        select=["BG503"],
    )
    assert codes(found) == []


def test_bg503_a_check_of_something_else_is_no_guard(bg):
    found = bg.files(
        {
            "jobs.py": """
    import redis

    r = redis.Redis()
    TTL = 600

    def settle(done):
        if r.set("settle-lock", "1", nx=True, ex=TTL):
            try:
                pass
            finally:
                if done:
                    r.delete("settle-lock")
"""
        },
        select=["BG503"],
    )
    assert codes(found) == [("BG503", 13)]


LOCK_ACROSS_MODULES = {
    "svc/__init__.py": "",
    "svc/keys.py": """
        NIGHTLY_LOCK = "lock:nightly-report"
        CACHE_KEY = "report:latest"
        """,
    "svc/jobs.py": """
        import redis

        from svc.keys import NIGHTLY_LOCK

        r = redis.Redis()

        def nightly():
            if not r.set(NIGHTLY_LOCK, "1", nx=True, ex=600):
                return
            build_report()

        def build_report():
            pass
        """,
}


def test_bg503_lock_taken_in_one_module_released_in_an_exit_hook_of_another(bg):
    # The hook deletes the key whether or not this process ever took the lock.
    found = bg.files(
        {
            **LOCK_ACROSS_MODULES,
            "svc/shutdown.py": """
                import atexit

                import redis

                from svc import keys

                r = redis.Redis()

                def release_on_exit():
                    r.delete(keys.NIGHTLY_LOCK)

                atexit.register(release_on_exit)
                """,
        },
        select=["BG503"],
    )
    assert codes(found) == [("BG503", 11)]
    assert "`lock:nightly-report` in a shutdown path" in found[0].message


def test_bg503_not_for_another_key_of_the_same_module(bg):
    found = bg.files(
        {
            **LOCK_ACROSS_MODULES,
            "svc/shutdown.py": """
                import atexit

                import redis

                from svc import keys

                r = redis.Redis()

                def clear_cache():
                    r.delete(keys.CACHE_KEY)

                atexit.register(clear_cache)
                """,
        },
        select=["BG503"],
    )
    assert codes(found) == []
