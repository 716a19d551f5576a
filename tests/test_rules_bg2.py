"""BG201-BG205: the cases a fixture file cannot hold.

The rules' cases are fixture files in ``tests/rules/<CODE>/`` (tests/test_rule_fixtures.py).
What stays here runs one job over each row of a table (parametrized), or compares settings.
Sources start with a newline, so line 1 is empty and the first line of code is line 2.
Only BG2xx findings are compared (``codes(found, "BG2")``).
"""

from __future__ import annotations

import pytest

from conftest import codes

# ---------------------------------------------------------------------------
# BG202: must not flag


@pytest.mark.xfail(
    strict=True,
    reason="BG202 judges a Thread subclass at its class statement and can see how it is created only in the "
    "same module: the summary (summary.py) keeps the targets of calls made elsewhere, not their arguments, so "
    "`Pump(daemon=True)` in another module is not seen",
)
def test_bg202_not_subclass_created_as_daemon_in_another_module(bg):
    found = bg.files(
        {
            "proj/__init__.py": "",
            "proj/pump.py": """
                import threading
                import time

                class Pump(threading.Thread):
                    def run(self):
                        while True:
                            time.sleep(1)
            """,
            "proj/main.py": """
                from proj.pump import Pump

                def main():
                    Pump(daemon=True).start()
            """,
        }
    )
    assert codes(found, "BG2") == []


# ---------------------------------------------------------------------------
# BG203 unbounded-wait-in-job (a wait for another service) and BG206 unbounded-local-wait-in-job
# (every other wait): each known API, unbounded (line 30) and bounded (line 31)

BG203_JOB = """
import queue
import multiprocessing
import subprocess
import threading
from concurrent.futures import Future, ThreadPoolExecutor

import confluent_kafka
import httpx
import requests
from celery import shared_task
from kafka import KafkaProducer

URL = "https://erp.example.com/api"
pool = ThreadPoolExecutor(max_workers=2)
jobs = queue.Queue(maxsize=100)
mp_jobs = multiprocessing.Queue(100)
producer = KafkaProducer()
cproducer = confluent_kafka.Producer({{}})
session = requests.Session()
client = httpx.Client()

def work():
    return 1

@shared_task
def sync(fut: Future):
    proc = subprocess.Popen(["rsync", "a", "b"])
    worker = threading.Thread(target=work)
    {unbounded}
    {bounded}
"""

# name -> (unbounded, bounded, the code that reports the unbounded one)
BG203_CASES = {
    "submit-result": ("pool.submit(work).result()", "pool.submit(work).result(timeout=5)", "BG206"),
    "future-result": ("fut.result()", "fut.result(5)", "BG206"),
    "kafka-send-get": ('producer.send("t", b"x").get()', 'producer.send("t", b"x").get(timeout=10)', "BG203"),
    "kafka-flush": ("producer.flush()", "producer.flush(timeout=5)", "BG203"),
    "confluent-flush": ("cproducer.flush()", "cproducer.flush(10)", "BG203"),
    "thread-join": ("worker.join()", "worker.join(5)", "BG206"),
    "queue-get": ("jobs.get()", "jobs.get(timeout=1)", "BG206"),
    "queue-get-block-true": ("jobs.get(True)", "jobs.get(True, 1)", "BG206"),
    "mp-queue-get": ("mp_jobs.get()", "mp_jobs.get(True, 5)", "BG206"),
    "requests": ("requests.get(URL)", "requests.get(URL, timeout=5)", "BG203"),
    "requests-timeout-none": ("requests.post(URL, timeout=None)", "requests.post(URL, timeout=(3.05, 20))", "BG203"),
    "requests-session": ("session.post(URL)", "session.post(URL, timeout=10)", "BG203"),
    "httpx": ("httpx.get(URL, timeout=None)", "httpx.get(URL)", "BG203"),
    "httpx-client": ("client.get(URL, timeout=None)", "client.get(URL)", "BG203"),
    "subprocess-run": ('subprocess.run(["ls"])', 'subprocess.run(["ls"], timeout=30)', "BG206"),
    "subprocess-check-output": ('subprocess.check_output(["ls"])', 'subprocess.check_output(["ls"], timeout=30)', "BG206"),
    "popen-wait": ("proc.wait()", "proc.wait(timeout=60)", "BG206"),
    "popen-communicate": ("proc.communicate()", "proc.communicate(None, 60)", "BG206"),
    "celery-result-get": ("sync.delay(None).get()", "sync.delay(None).get(timeout=10)", "BG203"),
    "celery-apply-async-get": ("sync.apply_async((None,)).get()", "sync.apply_async((None,)).get(timeout=10)", "BG203"),
}


@pytest.mark.parametrize("unbounded, bounded, code", list(BG203_CASES.values()), ids=list(BG203_CASES))
def test_bg203_known_blocking_waits(bg, unbounded, bounded, code):
    found = bg.code(BG203_JOB.format(unbounded=unbounded, bounded=bounded))
    assert codes(found, "BG2") == [(code, 30)]


_STARTED_IN = """
import concurrent.futures
import multiprocessing
import threading
import time

import requests

URL = "https://erp.example.com/api"


def poll_erp():
    while True:
        requests.get(URL)
        while not ready():
            time.sleep(1)


def ready():
    return True


def start():
    {start}
"""


@pytest.mark.parametrize(
    "start, reported",
    [
        ("multiprocessing.Process(target=poll_erp).start()", [("BG203", 14)]),
        ("concurrent.futures.ProcessPoolExecutor().submit(poll_erp)", [("BG203", 14)]),
        ("threading.Thread(target=poll_erp).start()", [("BG203", 14), ("BG206", 15)]),
        ("concurrent.futures.ThreadPoolExecutor().submit(poll_erp)", [("BG203", 14), ("BG206", 15)]),
    ],
    ids=["process", "process-pool", "thread", "thread-pool"],
)
def test_bg206_waits_in_a_child_process_are_silent_bg203_waits_reported(bg, start, reported):
    # a deploy's stop ends a child process with SIGTERM, mid-wait (multiprocessing.Process, and a
    # ProcessPoolExecutor's worker, which multiprocessing starts), so its local polling loop holds
    # no stop (BG206); a call to a server that never answers hangs the child all the same (BG203)
    found = bg.code(_STARTED_IN.format(start=start), select=["BG203", "BG206"])
    assert codes(found, "BG2") == reported
    if start.startswith("multiprocessing"):
        (finding,) = found
        assert finding.explanation == (
            "This is job code (job `example.poll_erp`): if the other side never answers, this run never ends and the "
            "child process running it does no more work until something kills it. Pass `timeout=` and handle the timeout."
        )


# ---------------------------------------------------------------------------
# BG205: must not flag


@pytest.mark.parametrize("config", ["replicas = 1\n", ""], ids=["one-replica", "default"])
def test_bg205_not_with_one_replica(bg, config):
    found = bg.code(
        """
        from apscheduler.schedulers.background import BackgroundScheduler

        scheduler = BackgroundScheduler()

        @scheduler.scheduled_job("cron", hour=3)
        def send_invoices():
            return 1
        """,
        config=config,
    )
    assert codes(found, "BG2") == []


BG204_UNDER_A_LOCK = """
import redis
from celery import shared_task
from django.db import transaction
from shop.models import Order

r = redis.Redis()

def ship_batch():
    with transaction.atomic():
        for order in Order.objects.select_for_update().filter(state="paid")[:100]:
            order.ship()

@shared_task
def ship_orders():
    lock = r.lock("ship-orders", timeout=600, blocking=False)
    if lock.acquire():
        try:
            ship_batch()
        finally:
            lock.release()
"""


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ("", []),  # one replica at a time runs the only job that reaches the row lock
        ("\n@shared_task\ndef ship_now():\n    ship_batch()\n", [("BG204", 11)]),  # another job reaches it unlocked
    ],
    ids=["every-job-locked", "one-job-unlocked"],
)
def test_bg204_in_a_job_that_runs_under_a_distributed_lock(bg, extra, expected):
    found = bg.files(
        {
            "shop/__init__.py": "",
            "shop/models.py": "class Order:\n    objects = None\n",
            "shop/tasks.py": BG204_UNDER_A_LOCK + extra,
        }
    )
    assert codes(found, "BG2") == expected
