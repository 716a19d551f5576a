"""Jobs declared through the project's own wrappers (a ``functools.partial`` of a job decorator, a
decorator whose body registers or wraps its function) and through the ``job-decorators`` setting;
``bgcheck jobs`` says how each job was recognised (``via``)."""

from __future__ import annotations

import json
import textwrap

from click.testing import CliRunner
from conftest import codes, write_project

from bgcheck.cli import main

WRAPPERS = """
import functools

import schedule
from redis import Redis
from rq.decorators import job as rq_job

from proj.app import app, scheduler

conn = Redis()
job = functools.partial(rq_job, connection=conn)


class PriorityJob(rq_job):
    pass


priority_job = functools.partial(PriorityJob, connection=conn, queue="high")


def periodic(minutes):
    def deco(func):
        schedule.every(minutes).minutes.do(func)
        return func
    return deco


def nightly(func):
    scheduler.add_job(func, "cron", hour=3)
    return func


def task(func):
    return app.task(func)


def task_with(**options):
    def deco(func):
        return app.task(**options)(func)
    return deco


def wrapped_task(func):
    @app.task
    @functools.wraps(func)
    def wrapper(*args):
        return func(*args)
    return wrapper


def logged(func):
    @functools.wraps(func)
    def wrapper(*args):
        print("running", func.__name__)
        return func(*args)
    return wrapper


def never_used(func):
    schedule.every(5).minutes.do(func)
    return func
"""

APP = """
from apscheduler.schedulers.background import BackgroundScheduler
from celery import Celery

app = Celery("proj")
scheduler = BackgroundScheduler()
"""

WORK = """
from proj.core.wrappers import job, logged, nightly, periodic, priority_job, task, task_with, wrapped_task

@periodic(5)
def cleanup():
    pass

@nightly
def settle():
    pass

@task
def send():
    pass

@task_with(acks_late=True)
def send_later():
    pass

@wrapped_task
def wrapped():
    pass

@job("default")
def rq_declared():
    pass

@priority_job("high")
def rq_subclass():
    pass

@logged
def not_a_job():
    pass

def also_not_a_job():
    pass
"""


def project(**more: str) -> dict:
    files = {
        "proj/__init__.py": "",
        "proj/app.py": APP,
        "proj/core/__init__.py": "",
        "proj/core/wrappers.py": WRAPPERS,
        "proj/work.py": WORK,
    }
    files.update(more)
    return files


def jobs(tmp_path, monkeypatch, files: dict, config: str = "", fmt: str = "json"):
    write_project(tmp_path, files, config)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["jobs", ".", "--no-cache", "--format", fmt])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["jobs"] if fmt == "json" else result.stdout


def test_wrapper_declared_jobs_are_listed_with_how_they_were_recognised(tmp_path, monkeypatch):
    found = {job["function"]: (job["kind"], job["framework"], job["via"]) for job in jobs(tmp_path, monkeypatch, project())}
    assert found == {
        "proj.work.cleanup": ("scheduled", "schedule", "wrapper proj.core.wrappers.periodic -> schedule.every().do"),
        "proj.work.settle": (
            "scheduled",
            "APScheduler",
            "wrapper proj.core.wrappers.nightly -> apscheduler.schedulers.background.BackgroundScheduler().add_job",
        ),
        "proj.work.send": ("queued", "Celery", "wrapper proj.core.wrappers.task -> celery.Celery().task"),
        "proj.work.send_later": ("queued", "Celery", "wrapper proj.core.wrappers.task_with -> celery.Celery().task"),
        "proj.work.wrapped": ("queued", "Celery", "wrapper proj.core.wrappers.wrapped_task -> celery.Celery().task"),
        "proj.work.rq_declared": ("queued", "RQ", "decorator proj.core.wrappers.job"),
        "proj.work.rq_subclass": ("queued", "RQ", "decorator proj.core.wrappers.priority_job"),
        # never_used registers its parameter and decorates nothing: that registration stays, unnamed
        None: ("scheduled", "schedule", "call schedule.every().do"),
    }


def test_plain_decorators_and_undecorated_functions_are_not_jobs(tmp_path, monkeypatch):
    functions = {job["function"] for job in jobs(tmp_path, monkeypatch, project())}
    assert "proj.work.not_a_job" not in functions
    assert "proj.work.also_not_a_job" not in functions
    assert not any(f and ".<locals>." in f for f in functions)  # the wrappers' inner functions give way


def test_text_table_has_a_via_column(tmp_path, monkeypatch):
    out = jobs(tmp_path, monkeypatch, project(), fmt="text")
    header, *lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("proj.work.cleanup "))
    details = " ".join(line.strip() for line in lines[at + 1 :][:3] if line.startswith(" "))
    assert "wrapper proj.core.wrappers.periodic -> schedule.every().do" in details


def test_wrapper_declared_job_is_job_code(bg):
    found = bg.files(
        project(
            **{
                "proj/work.py": """
                    from proj.core.wrappers import logged, task

                    @task
                    def consume(stream):
                        while True:
                            stream.read_one()

                    @logged
                    def helper(stream):
                        while True:
                            stream.read_one()
                    """
            }
        ),
        select=["BG201"],
    )
    assert codes(found) == [("BG201", 6)]


CONFIGURED = {
    "proj/__init__.py": "",
    "proj/ext.py": """
        def background(func=None, **options):
            return func if func is not None else (lambda f: f)

        def traced(func):
            return func
        """,
    "proj/api.py": "from proj.ext import background\n",
    "proj/work.py": """
        from proj import api
        from proj.ext import background, traced

        @background
        def bare():
            pass

        @api.background(queue="low")
        def called():
            pass

        @traced
        def traced_only():
            pass
        """,
}


def test_job_decorators_setting_marks_jobs(tmp_path, monkeypatch):
    config = 'job-decorators = ["proj.ext.background"]\n'
    found = {job["function"]: (job["kind"], job["framework"], job["via"]) for job in jobs(tmp_path, monkeypatch, CONFIGURED, config)}
    assert found == {
        "proj.work.bare": ("queued", "job-decorators", "decorator proj.ext.background (job-decorators)"),
        "proj.work.called": ("queued", "job-decorators", "decorator proj.ext.background (job-decorators)"),
    }


def test_without_the_setting_the_same_decorators_are_not_jobs(tmp_path, monkeypatch):
    assert jobs(tmp_path, monkeypatch, CONFIGURED, "") == []


def test_job_decorators_setting_makes_job_code(bg):
    source = dict(CONFIGURED)
    source["proj/work.py"] = """
        from proj.ext import background

        @background
        def consume(stream):
            while True:
                stream.read_one()
        """
    config = 'job-decorators = ["proj.ext.background"]\n'
    assert codes(bg.files(source, config=config, select=["BG201"])) == [("BG201", 6)]
    assert codes(bg.files(source, config="", select=["BG201"])) == []


def test_job_decorators_setting_is_validated(tmp_path, monkeypatch):
    for value, message in (('"proj.ext.background"', "a list of strings"), ('["background"]', "qualified name")):
        folder = tmp_path / str(len(message))
        write_project(folder, CONFIGURED, f"job-decorators = {value}\n")
        monkeypatch.chdir(folder)
        result = CliRunner().invoke(main, ["check", ".", "--no-cache"])
        assert result.exit_code == 2
        assert "job-decorators" in result.stderr and message in result.stderr
        assert "Traceback" not in result.output
        assert len(result.stderr.strip().splitlines()) == 1


CALL_WRAPPERS = {
    "proj/__init__.py": "",
    "proj/background.py": """
        import asyncio
        import threading
        from typing import Callable

        from redis import Redis
        from rq import Queue

        queue = Queue(connection=Redis())


        def enqueue(fn: Callable, *args, **kwargs):
            return queue.enqueue_call(func=fn, args=args, kwargs=kwargs, timeout=60)


        def later(fn, *args):
            return enqueue(fn, *args)


        def spawn(coro):
            return asyncio.get_running_loop().create_task(coro)


        def in_thread(target):
            threading.Thread(target=target, daemon=True).start()


        def log_call(fn):
            print(fn.__name__)
        """,
    "proj/shop.py": """
        from proj import background
        from proj.background import enqueue, in_thread, later, log_call, spawn


        def send_receipt(order_id):
            pass


        def rebuild_index():
            pass


        def audit():
            pass


        async def poll():
            pass


        def not_a_coroutine():
            pass


        async def checkout(order_id):
            enqueue(send_receipt, order_id)
            later(rebuild_index)
            background.in_thread(audit)
            spawn(poll())
            spawn(not_a_coroutine())
            enqueue(print, "a builtin")
            log_call(send_receipt)
        """,
}


def test_functions_handed_to_the_projects_own_job_starters_are_jobs(tmp_path, monkeypatch):
    """A plain function that hands its parameter on as a job's function (``queue.enqueue_call(func=fn)``,
    ``Thread(target=target)``, ``create_task(coro)``), also through another such function, is a call
    wrapper: what its callers hand it is the job, and its own registration of an unnamed parameter
    gives way. A builtin, a plain function where a coroutine is wanted, and a function handed to a
    helper that starts nothing are not jobs."""
    found = sorted(
        (job["function"], job["kind"], job["framework"], job["registered_in"], job["via"])
        for job in jobs(tmp_path, monkeypatch, CALL_WRAPPERS)
    )
    assert found == [
        ("proj.shop.audit", "thread", "threading", "proj/shop.py", "wrapper proj.background.in_thread -> threading.Thread"),
        ("proj.shop.poll", "in-process task", "asyncio", "proj/shop.py",
         "wrapper proj.background.spawn -> asyncio.get_event_loop().create_task"),
        ("proj.shop.rebuild_index", "queued", "RQ", "proj/shop.py", "wrapper proj.background.later -> rq.Queue().enqueue_call"),
        ("proj.shop.send_receipt", "queued", "RQ", "proj/shop.py", "wrapper proj.background.enqueue -> rq.Queue().enqueue_call"),
    ]


def test_a_function_handed_to_a_call_wrapper_is_job_code(bg):
    files = dict(CALL_WRAPPERS)
    files["proj/shop.py"] = files["proj/shop.py"].replace(
        "def rebuild_index():\n            pass", "def rebuild_index():\n            while True:\n                pass"
    )
    assert codes(bg.files(files, select=["BG201"])) == [("BG201", 11)]  # the `while True:` of rebuild_index
