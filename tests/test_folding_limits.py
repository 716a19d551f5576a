"""Constant folding is bounded: what a repository writes can make a value UNKNOWN, never make
bgcheck allocate gigabytes, loop for minutes or raise (issue: hostile review items 2-4)."""

from __future__ import annotations

import time

import libcst as cst
import pytest

from bgcheck.syntax import cst_ir, ir
from bgcheck.syntax.ir import UNKNOWN, TimeDelta, as_seconds
from conftest import codes


def fold_source(expression: str, constants: dict[str, str] | None = None):
    """Fold ``expression``; names refer to ``constants`` (name -> expression source)."""

    def resolve(name: str):
        return ("ref", f"m.{name}")

    table = {f"m.{name}": cst_ir.to_ir(cst.parse_expression(src), resolve) for name, src in (constants or {}).items()}
    return ir.fold(cst_ir.to_ir(cst.parse_expression(expression), resolve), table.get)


@pytest.mark.parametrize(
    "expression, expected",
    [
        ("60 * 5", 300),
        ("2 ** 10", 1024),
        ("(2 ** 8) ** 2", 65536),
        ("-(2 ** 64)", -(2**64)),
        ("1.5 * 4", 6.0),
        ('"lock:%s" % "nightly"', "lock:nightly"),
        ('"%05d" % 42', "00042"),
        ('"a" "b" "c"', "abc"),
    ],
)
def test_ordinary_values_still_fold(expression, expected):
    assert fold_source(expression) == expected


@pytest.mark.parametrize(
    "expression",
    [
        '"%09999999999d" % 1',  # 10 GB of zeros if evaluated
        '"%.99999999f" % 1.0',
        '"%*d" % (10 ** 9, 1)',
        "(2 ** 64) ** 64",
        "-(2 ** 64) ** 64",
        "((10 ** 64) ** 64) ** 64",
        "2 ** 257",
        "(2 ** 200) * (2 ** 200)",
        "10.0 ** 400",
        "1e308 * 10",
        "1e999",
        "(-8) ** 0.5",  # complex
        "1 // 0",
        "9" * 5000,  # int() refuses decimal literals past 4,300 digits
    ],
)
def test_values_past_the_limits_are_unknown(expression):
    started = time.perf_counter()
    assert fold_source(expression) is UNKNOWN
    assert time.perf_counter() - started < 1


def test_a_chain_of_doubling_constants_folds_in_linear_time():
    constants = {"N0": "1"} | {f"N{i}": f"N{i - 1} + N{i - 1}" for i in range(1, 23)}
    started = time.perf_counter()
    assert fold_source("N22", constants) == 2**22
    assert time.perf_counter() - started < 1


def test_doubling_past_the_integer_limit_is_unknown():
    constants = {"N0": "1"} | {f"N{i}": f"N{i - 1} * N{i - 1} * 2" for i in range(1, 40)}
    assert fold_source("N5", constants) == 2**31  # (((((1*1*2)^2*2)...
    assert fold_source("N39", constants) is UNKNOWN


def test_doubling_strings_stop_at_the_length_limit():
    constants = {"S0": '"ab"'} | {f"S{i}": f"S{i - 1} + S{i - 1}" for i in range(1, 40)}
    assert fold_source("S3", constants) == "ab" * 8
    assert fold_source("S39", constants) is UNKNOWN


def test_containers_built_from_shared_constants_stop_at_the_step_budget():
    # (T0, T0) nested 40 times stands for 2**40 leaves: never built.
    constants = {"T0": "1"} | {f"T{i}": f"(T{i - 1}, T{i - 1})" for i in range(1, 41)}
    assert fold_source("T2", constants) == ((1, 1), (1, 1))
    started = time.perf_counter()
    assert fold_source("T40", constants) is UNKNOWN
    assert time.perf_counter() - started < 2


def test_timedeltas_past_the_limits_are_unknown_and_ordinary_ones_fold():
    assert fold_source("datetime.timedelta(minutes=5)", {}) is UNKNOWN  # "datetime" not resolved here
    td = ir.fold(("call", "datetime.timedelta", (), (("seconds", ("v", 90)),)), lambda name: None)
    assert td == TimeDelta(90.0)
    huge = ("bin", "**", ("bin", "**", ("v", 2), ("v", 64)), ("v", 64))
    assert ir.fold(("call", "datetime.timedelta", (), (("seconds", huge),)), lambda name: None) is UNKNOWN
    big = ("v", 2**255)
    assert ir.fold(("call", "datetime.timedelta", (), (("weeks", big),)), lambda name: None) is not UNKNOWN
    assert ir.fold(("bin", "*", ("call", "datetime.timedelta", (), (("weeks", big),)), ("v", 1e300)), lambda name: None) is UNKNOWN


def test_as_seconds_never_raises_on_a_number():
    assert as_seconds(2**4096) is None
    assert as_seconds(float("inf")) is None
    assert as_seconds(300) == 300.0
    assert as_seconds(TimeDelta(12.5)) == 12.5


# --- the same shapes through a whole run: no crash, the hostile value is unknown, ordinary ones found

LOCK_JOB = """
import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()
{constants}

@app.task
def nightly():
    with r.lock("reports:nightly", timeout={timeout}):
        pass
"""
RUNTIME = '[tool.bgcheck.runtimes]\n"jobs.nightly" = 300\n'


@pytest.mark.parametrize(
    "constants, timeout, flagged",
    [
        ("", "(2 ** 3) ** 2", True),  # 64 s < 300 s
        ("", "(2 ** 64) ** 64", False),
        ("", "((10 ** 64) ** 64) ** 64", False),
        ("N0 = 1\n" + "".join(f"N{i} = N{i - 1} + N{i - 1}\n" for i in range(1, 23)), "N5", True),  # 32 s
        ("N0 = 1\n" + "".join(f"N{i} = N{i - 1} + N{i - 1}\n" for i in range(1, 23)), "N22", False),  # 4,194,304 s
        ("", "timedelta(seconds=(2 ** 64) ** 64)", False),
        ("", "timedelta(seconds=60)", True),
    ],
)
def test_lock_ttl_folding_in_a_run(bg, constants, timeout, flagged):
    source = LOCK_JOB.format(constants="from datetime import timedelta\n" + constants, timeout=timeout)
    started = time.perf_counter()
    found = bg.files({"jobs.py": source}, config=RUNTIME, select=["BG0", "BG5"])
    assert time.perf_counter() - started < 10
    line = source.splitlines().index("    with r.lock(\"reports:nightly\", timeout=" + timeout + "):") + 1
    assert codes(found) == ([("BG501", line)] if flagged else [])


def test_lock_key_formatting_bomb_is_unknown_and_an_ordinary_key_is_named(bg):
    bomb = bg.code(
        """
        import redis
        r = redis.Redis()
        KEY = "%09999999999d" % 1
        r.delete(KEY)
        """,
        select=["BG0", "BG5"],
    )
    assert codes(bomb, "BG0") == []
    found = bg.code(
        """
        import redis
        r = redis.Redis()
        with r.lock("nightly:%s" % "a", timeout=None):
            pass
        """,
        select=["BG0", "BG5"],
    )
    assert codes(found, "BG0") == []


def test_unbounded_queue_with_a_huge_negative_maxsize(bg):
    found = bg.code(
        """
        import queue
        a = queue.Queue(-(2 ** 64) ** 64)
        b = queue.Queue(-(2 ** 6) ** 2)
        c = queue.Queue(maxsize=-1e999)

        async def pump(reader):
            async for line in reader:
                a.put(line)
                b.put(line)
                c.put(line)
        """,
        select=["BG0", "BG3"],
    )
    assert codes(found) == [("BG301", 4)]  # a and c are unknown: silent


def test_celery_time_limits_and_beat_schedule_with_huge_numbers(bg):
    found = bg.files(
        {
            "proj/__init__.py": "",
            "proj/celery_app.py": """
                from datetime import timedelta
                from celery import Celery

                app = Celery("proj")
                app.conf.task_soft_time_limit = (2 ** 64) ** 64
                app.conf.beat_schedule = {
                    "huge": {"task": "proj.tasks.work", "schedule": timedelta(seconds=(2 ** 64) ** 64)},
                    "float": {"task": "proj.tasks.work", "schedule": 1e308 * 10},
                }
            """,
            "proj/tasks.py": """
                from proj.celery_app import app

                @app.task(time_limit=(2 ** 64) ** 64, soft_time_limit=-(2 ** 64) ** 64)
                def work():
                    try:
                        pass
                    except Exception:
                        pass

                @app.task(soft_time_limit=30)
                def other():
                    try:
                        pass
                    except Exception:
                        pass
                    mark_done()
            """,
        },
        select=["BG0", "BG1", "BG2"],
    )
    assert [d for d in found if d.code == "BG000"] == []
    assert ("BG106", 15) in codes(found)  # the task with a sane soft time limit is still checked


def test_apscheduler_interval_with_huge_seconds(bg):
    found = bg.code(
        """
        from apscheduler.schedulers.background import BackgroundScheduler

        scheduler = BackgroundScheduler()

        def job():
            while True:
                pass

        scheduler.add_job(job, "interval", seconds=(2 ** 64) ** 64)
        scheduler.add_job(job, "interval", minutes=((10 ** 64) ** 64) ** 64)
        scheduler.start()
        """,
        select=["BG0", "BG2"],
    )
    assert [d for d in found if d.code == "BG000"] == []
    assert ("BG201", 7) in codes(found)  # the job is still a scheduled job
