"""Receiver types in the project model (issue 11, causes 2, 3, 6, 9 and 11).

Rules that match a method on an executor, a queue, a thread, a task or a future match it only
when the model knows the receiver is one: from an assignment in any method, a module-level
instance, ``with ... as``, an annotation, a project factory's return, ``functools.partial``, a
library subclass. A name that merely says "executor" is not enough. Each shape is tested both
ways. Sources start with a newline, so the first line of code is line 2.
"""

from __future__ import annotations

import pytest

from click.testing import CliRunner

from bgcheck.cli import main
from conftest import codes, write_project

STREAM = """
import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor
from typing import Optional

from kafka import KafkaConsumer

def handle(record):
    return record
"""

# ---------------------------------------------------------------------------
# cause 2: what the receiver is (BG303 on submit over a Kafka consumer)


def test_self_attribute_set_in_another_method_after_a_none_placeholder(bg):
    found = bg.code(
        STREAM
        + """
class Relay:
    def __init__(self):
        self.pool = None

    def start(self):
        self.pool = ThreadPoolExecutor(max_workers=4)

    def run(self):
        for record in KafkaConsumer("orders"):
            self.pool.submit(handle, record)
""",
        select=["BG303"],
    )
    assert codes(found) == [("BG303", 21)]


@pytest.mark.parametrize(
    "init, reported",
    [
        ("self.pool = pool or ThreadPoolExecutor(max_workers=4)", [("BG303", 21)]),
        ("if pool is None:\n            pool = ThreadPoolExecutor(max_workers=4)\n        self.pool = pool", [("BG303", 23)]),
        ("self.pool = self._make_pool() if pool is None else pool", [("BG303", 21)]),
        ("self.pool = self._make_pool()", [("BG303", 21)]),
        ("self.pool = pool", []),
    ],
    ids=["or-default", "none-then-default", "conditional-expression", "factory-method", "handed-in-only"],
)
def test_self_attribute_made_by_the_class_or_handed_in(bg, init, reported):
    # the caller may hand in its own pool (dependency injection): the attribute is what the class
    # makes when it is not; a parameter alone says nothing of what it holds
    found = bg.code(
        STREAM
        + f"""
class Relay:
    def __init__(self, pool=None):
        {init}

    def _make_pool(self) -> ThreadPoolExecutor:
        return ThreadPoolExecutor(max_workers=4)

    def run(self):
        for record in KafkaConsumer("orders"):
            self.pool.submit(handle, record)
""",
        select=["BG303"],
    )
    assert codes(found) == reported


def test_project_class_named_executor_with_its_own_submit_is_not_concurrent_futures(bg):
    found = bg.code(
        STREAM
        + """
class BoundedExecutor:
    def submit(self, fn, *args):
        fn(*args)  # runs inline, one at a time

class Relay:
    def __init__(self):
        self.executor = BoundedExecutor()

    def run(self):
        for record in KafkaConsumer("orders"):
            self.executor.submit(handle, record)
""",
        select=["BG303", "BG601", "BG605"],
    )
    assert codes(found) == []


def test_a_name_alone_says_nothing(bg):
    found = bg.code(
        STREAM
        + """
def run(executor, thread_pool):
    for record in KafkaConsumer("orders"):
        executor.submit(handle, record)
        thread_pool.submit(handle, record)
""",
        select=["BG303", "BG605"],
    )
    assert codes(found) == []


def test_global_bound_in_an_init_function(bg):
    found = bg.code(
        STREAM
        + """
POOL = None

def init():
    global POOL
    POOL = ThreadPoolExecutor(8)

def run():
    for record in KafkaConsumer("orders"):
        POOL.submit(handle, record)
""",
        select=["BG303"],
    )
    assert codes(found) == [("BG303", 20)]


def test_annotations_optional_union_and_string(bg):
    found = bg.code(
        STREAM
        + """
def a(pool: Optional[ThreadPoolExecutor]):
    for record in KafkaConsumer("a"):
        pool.submit(handle, record)

def b(pool: "ThreadPoolExecutor | None"):
    for record in KafkaConsumer("b"):
        pool.submit(handle, record)

class C:
    pool: Optional[ThreadPoolExecutor] = None

    def run(self):
        for record in KafkaConsumer("c"):
            self.pool.submit(handle, record)

def d(pool: Optional[int]):
    for record in KafkaConsumer("d"):
        pool.submit(handle, record)
""",
        select=["BG303"],
    )
    assert codes(found) == [("BG303", 14), ("BG303", 18), ("BG303", 25)]


def test_factory_functions_and_methods_across_modules(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/pools.py": """
                from concurrent.futures import ThreadPoolExecutor

                def make_pool() -> ThreadPoolExecutor:
                    return ThreadPoolExecutor(4)

                def make_other():
                    return ThreadPoolExecutor(2)

                class Pools:
                    def io(self):
                        return ThreadPoolExecutor(16)

                class Inline:
                    def submit(self, fn, *args):
                        return fn(*args)

                def make_inline():
                    return Inline()
                """,
            "app/relay.py": """
                from kafka import KafkaConsumer
                from app.pools import Pools, make_inline, make_other, make_pool

                def handle(record):
                    return record

                def run():
                    pool, other, inline = make_pool(), make_other(), make_inline()
                    for record in KafkaConsumer("orders"):
                        make_pool().submit(handle, record)
                        make_other().submit(handle, record)
                        Pools().io().submit(handle, record)
                        make_inline().submit(handle, record)
                """,
        },
        select=["BG303"],
    )
    assert codes(found) == [("BG303", 11), ("BG303", 12), ("BG303", 13)]


def test_partial_of_the_class_and_library_subclass(bg):
    found = bg.code(
        STREAM
        + """
Pool = functools.partial(ThreadPoolExecutor, max_workers=4)

class NamedPool(ThreadPoolExecutor):
    pass

class OwnSubmit(ThreadPoolExecutor):
    def submit(self, fn, *args, **kwargs):
        return fn(*args, **kwargs)

def run():
    a, b, c = Pool(), NamedPool(), OwnSubmit()
    with Pool() as pool:
        for record in KafkaConsumer("orders"):
            pool.submit(handle, record)
            NamedPool().submit(handle, record)
            OwnSubmit().submit(handle, record)
""",
        select=["BG303"],
    )
    assert codes(found) == [("BG303", 25), ("BG303", 26)]


def test_future_result_only_on_a_known_future(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor
        from celery import shared_task

        POOL = ThreadPoolExecutor(2)

        class Batcher:
            def submit(self, fn):
                return Handle()

        class Handle:
            def result(self):
                return None

        def work():
            return 1

        @shared_task
        def job():
            future = POOL.submit(work)
            future.result()
            Batcher().submit(work).result()
        """,
        select=["BG206"],
    )
    assert codes(found) == [("BG206", 21)]


def test_shutdown_without_wait_on_a_typed_attribute_only(bg):
    found = bg.code(
        """
        import atexit
        from concurrent.futures import ThreadPoolExecutor
        from typing import Optional

        class JobExecutor:
            def shutdown(self, wait=True):
                pass

        class Service:
            def __init__(self):
                self.pool: Optional[ThreadPoolExecutor] = None
                self.jobs = JobExecutor()

            def start(self):
                self.pool = ThreadPoolExecutor(4)

            def stop(self):
                self.pool.shutdown(wait=False)
                self.jobs.shutdown(wait=False)
        """,
        select=["BG402"],
    )
    assert codes(found) == [("BG402", 19)]


def test_verbose_names_receivers_whose_type_is_unknown(tmp_path, monkeypatch):
    write_project(
        tmp_path,
        {
            "app.py": """
                from concurrent.futures import ThreadPoolExecutor

                POOL = ThreadPoolExecutor(2)

                def run(executor, items):
                    executor.submit(print)
                    POOL.submit(print)
                """
        },
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", ".", "--no-cache", "--verbose"])
    notes = [line for line in result.stderr.splitlines() if "receiver" in line]
    assert len(notes) == 1
    assert "`executor.submit()` in run(): the receiver's type is not known" in notes[0]
    assert "BG303/BG601/BG605 not checked" in notes[0]
    quiet = CliRunner().invoke(main, ["check", ".", "--no-cache"])
    assert "receiver" not in quiet.stderr
    # checking another file of the project says nothing of this one (modelled, not checked)
    (tmp_path / "other.py").write_text("import app\n", encoding="utf-8")
    named = CliRunner().invoke(main, ["check", "other.py", "--no-cache", "--verbose"])
    assert "receiver" not in named.stderr


# ---------------------------------------------------------------------------
# cause 3: awaited work in a loop is sequential (BG303)


def test_awaited_run_in_executor_and_awaited_task_in_a_loop_are_not_fanout(bg):
    found = bg.code(
        """
        import asyncio

        async def handle(chunk):
            return chunk

        def read_chunk():
            return b""

        async def pump(sink):
            loop = asyncio.get_running_loop()
            while True:
                chunk = await loop.run_in_executor(None, read_chunk)
                task = asyncio.create_task(handle(chunk))
                await task
                other = asyncio.create_task(handle(chunk))
                await asyncio.wait_for(other, 5)
                await asyncio.shield(asyncio.create_task(handle(chunk)))
        """,
        select=["BG303"],
    )
    assert codes(found) == []


def test_not_awaited_in_the_loop_is_fanout(bg):
    found = bg.code(
        """
        import asyncio

        async def handle(chunk):
            return chunk

        def read_chunk():
            return b""

        async def pump(sink):
            loop = asyncio.get_running_loop()
            futures = []
            while True:
                futures.append(loop.run_in_executor(None, read_chunk))
                task = asyncio.create_task(handle(1))
                sink.add(task)
            await asyncio.gather(*futures)
        """,
        select=["BG303"],
    )
    assert codes(found) == [("BG303", 14), ("BG303", 15)]


# ---------------------------------------------------------------------------
# cause 6: a queue that cannot be full, and a wake-up sentinel, drop no work (BG304)


def test_queue_full_on_unbounded_queue_or_sentinel_is_silent(bg):
    found = bg.code(
        """
        import asyncio
        import queue

        STOP = object()
        wakeups = queue.Queue()
        bounded = queue.Queue(maxsize=10)
        events = asyncio.Queue(100)

        class Worker:
            def __init__(self):
                self.inbox = asyncio.Queue()

            def poke(self, item):
                try:
                    self.inbox.put_nowait(item)
                except asyncio.QueueFull:
                    pass

        def wake():
            try:
                wakeups.put_nowait(1)
            except queue.Full:
                pass
            try:
                bounded.put_nowait(None)
            except queue.Full:
                pass
            try:
                events.put_nowait(STOP)
            except asyncio.QueueFull:
                pass
        """,
        select=["BG304"],
    )
    assert codes(found) == []


def test_queue_full_on_bounded_queue_with_work_is_flagged(bg):
    found = bg.code(
        """
        import asyncio
        import queue

        bounded = queue.Queue(maxsize=10)

        class Worker:
            def __init__(self):
                self.inbox = asyncio.Queue(maxsize=1)

            def offer(self, item):
                try:
                    self.inbox.put_nowait(item)
                except asyncio.QueueFull:
                    pass

        def send(event, q):
            try:
                bounded.put_nowait(event)
            except queue.Full:
                pass
            try:
                q.put(event, block=False)
            except queue.Full:
                pass
        """,
        select=["BG304"],
    )
    assert codes(found) == [("BG304", 14), ("BG304", 20), ("BG304", 24)]


# ---------------------------------------------------------------------------
# cause 9: consumer waits that hold no stop (BG206)

CONSUMER = """
import queue
import threading

STOP = object()
jobs = queue.Queue(maxsize=100)

def write(item):
    return item
"""


def test_sentinel_consumers_are_silent(bg):
    found = bg.code(
        CONSUMER
        + """
def consume():
    while True:
        item = jobs.get()
        if item is None:
            break
        write(item)

def consume_stop_object():
    while True:
        item = jobs.get()
        if item is STOP:
            return
        write(item)

def consume_walrus():
    while (item := jobs.get()) is not None:
        write(item)

def stop():
    jobs.put(None)

workers = [
    threading.Thread(target=consume),
    threading.Thread(target=consume_stop_object),
    threading.Thread(target=consume_walrus),
]
""",
        select=["BG206"],
    )
    assert codes(found) == []


def test_consumer_without_a_sentinel_exit_is_flagged(bg):
    found = bg.code(
        CONSUMER
        + """
def consume():
    while True:
        item = jobs.get()
        if item is None:
            continue
        write(item)

worker = threading.Thread(target=consume)
""",
        select=["BG206"],
    )
    assert codes(found) == [("BG206", 13)]


def test_daemon_consumer_thread_nobody_joins_is_silent(bg):
    found = bg.code(
        CONSUMER
        + """
def consume():
    while True:
        write(jobs.get())

class Pump(threading.Thread):
    daemon = True

    def run(self):
        while True:
            write(jobs.get())

threading.Thread(target=consume, daemon=True).start()
helper = threading.Thread(target=consume, daemon=True)
""",
        select=["BG206"],
    )
    assert codes(found) == []


def test_daemon_consumer_thread_joined_at_shutdown_is_flagged(bg):
    found = bg.code(
        CONSUMER
        + """
import signal

def consume():
    while True:
        write(jobs.get())

def drain():
    while True:
        write(jobs.get())

auditor = threading.Thread(target=consume, daemon=True)
drainer = threading.Thread(target=drain)

def on_sigterm(signum, frame):
    auditor.join(timeout=20)

signal.signal(signal.SIGTERM, on_sigterm)
""",
        select=["BG206"],
    )
    assert codes(found) == [("BG206", 15), ("BG206", 19)]


# ---------------------------------------------------------------------------
# cause 11: which unbounded queues are a risk (BG301)


def test_per_call_wakeup_and_low_rate_queues_are_silent(bg):
    found = bg.code(
        """
        import asyncio
        import queue
        import threading

        wakeups = queue.Queue()
        audit = queue.Queue()

        def run_all(jobs):
            results = queue.Queue()
            threads = [threading.Thread(target=lambda j=j: results.put(j())) for j in jobs]
            for job in jobs:
                results.put(job)
            return [results.get() for _ in jobs]

        def stop_all(workers):
            for _ in workers:
                wakeups.put(None)

        def record(event):
            audit.put(event)

        class Service:
            def __init__(self):
                self.replies = asyncio.Queue()

            async def request(self, message):
                self.replies.put_nowait(message)
        """,
        select=["BG301"],
    )
    assert codes(found) == []


def test_loops_over_sized_things_and_the_queue_itself_do_not_feed(bg):
    found = bg.code(
        """
        import queue

        idle = queue.LifoQueue()
        delayed = queue.PriorityQueue()
        control = queue.Queue()

        def fill(limit, make):
            for _ in range(limit):
                idle.put_nowait(make())
            while len(idle.queue) < limit:
                idle.put_nowait(make())
            while not idle.full():
                idle.put_nowait(make())

        def drain(q):
            while not q.empty():
                yield q.get_nowait()

        def requeue(now):
            for item in list(delayed.queue):
                if item > now:
                    delayed.put(item)
                    break
            for item in drain(delayed):
                if item > now:
                    delayed.put(item)
                    break

        def supervise(workers):
            while True:
                for worker in workers:
                    if not worker.is_alive():
                        control.put(("restart", worker))
        """,
        select=["BG301"],
    )
    assert codes(found) == []


def test_kafka_consumer_for_loop_feeds(bg):
    found = bg.code(
        """
        import queue
        from kafka import KafkaConsumer

        records = queue.Queue()

        def read():
            consumer = KafkaConsumer("orders")
            for record in consumer:
                records.put(record)
        """,
        select=["BG301"],
    )
    assert codes(found) == [("BG301", 5)]


def test_rows_of_a_query_feed(bg):
    found = bg.code(
        """
        import queue

        audit = queue.Queue()

        def due_payouts(db):
            return db.query("SELECT * FROM payouts")

        def settle(db):
            for payout in due_payouts(db):
                audit.put(payout)
        """,
        select=["BG301"],
    )
    assert codes(found) == [("BG301", 4)]
    assert "fed in a loop in `settle()`" in found[0].message


def test_queue_fed_from_a_stream_loop_in_another_module_and_subclass(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/queues.py": """
                import asyncio
                import queue

                inbound = queue.Queue()

                class Base:
                    def __init__(self):
                        self.outbox = asyncio.Queue()

                class Pump(Base):
                    async def pump(self, ws):
                        async for message in ws:
                            await self.outbox.put(message)
                """,
            "app/reader.py": """
                import socket
                from app.queues import inbound

                def read(sock: socket.socket):
                    while True:
                        inbound.put(sock.recv(4096))
                """,
        },
        select=["BG301"],
    )
    assert codes(found) == [("BG301", 5), ("BG301", 9)]
    assert "fed in a loop in `read()`" in found[0].message
    assert "fed in a loop in `pump()`" in found[1].message


_KOMBU_WORKER = """
import queue

from kombu import Consumer
from kombu.mixins import ConsumerMixin


class Worker({base}):
    def __init__(self, connection, queues, work_queue):
        self.connection = connection
        self.queues = queues
        self.work_queue = work_queue

    def get_consumers(self, Consumer, channel):
        return [Consumer(queues=self.queues, on_message=self.on_message)]

    def on_message(self, message):
        self.work_queue.put(message)


def start(connection, queues):
    work_queue = queue.Queue()
    worker = Worker(connection, queues, work_queue)
    worker.run()
    return worker
"""


@pytest.mark.parametrize(
    ("base", "expected"),
    [
        ("ConsumerMixin", [("BG301", 22)]),  # kombu hands get_consumers its Consumer: on_message runs per delivery
        ("object", []),  # a plain class: its ``Consumer`` parameter could be anything
    ],
)
def test_queue_fed_by_a_kombu_consumer_mixin_callback(bg, base, expected):
    found = bg.code(_KOMBU_WORKER.format(base=base), select=["BG301"])
    assert codes(found) == expected
    if expected:
        assert found[0].message == (
            "`queue.Queue()` with no maxsize is fed per message in consumer callback `on_message()`: it grows without bound"
        )


def test_queue_fed_by_kombu_callbacks_lists_and_register_callback(bg):
    found = bg.code(
        """
        import queue

        import kombu

        orders = queue.Queue()
        refunds = queue.Queue()
        audits = queue.Queue()

        def take_order(body, message):
            orders.put(body)

        def take_refund(body, message):
            refunds.put(body)

        def take_audit(body, message):
            audits.put(body)

        def listen(channel, order_queue, refund_queue):
            kombu.Consumer(channel, [order_queue], callbacks=[take_order])
            consumer = kombu.Consumer(channel, [refund_queue])
            consumer.register_callback(take_refund)
            take_audit(None, None)  # called once, by the project: not a callback
        """,
        select=["BG301"],
    )
    assert codes(found) == [("BG301", 6), ("BG301", 7)]  # audits (line 8) is fed by one call


def test_local_queue_handed_to_a_constructor(bg):
    found = bg.code(
        """
        import queue


        class Keeper:
            def __init__(self, inbox):
                self.inbox = inbox

            def pump(self, sock):
                while True:
                    self.inbox.put(sock.recv(4096))


        class Reader:
            def __init__(self, inbox):
                self.size = inbox.qsize()


        def start(sock):
            kept = queue.Queue()
            Keeper(inbox=kept).pump(sock)
            looked_at = queue.Queue()
            Reader(looked_at)
        """,
        select=["BG301"],
    )
    assert codes(found) == [("BG301", 20)]


def test_cancel_in_a_shutdown_path_only_on_tasks(bg):
    found = bg.code(
        """
        import asyncio
        import signal

        class Download:
            def cancel(self):
                self.cancelled = True

        download = Download()
        loop = asyncio.new_event_loop()
        STATES = {}

        async def work():
            return 1

        task = loop.create_task(work())

        def on_sigterm(signum, frame):
            download.cancel()
            task.cancel()
            state = STATES.pop("key", None)
            state.cancel()

        signal.signal(signal.SIGTERM, on_sigterm)
        """,
        select=["BG402"],
    )
    assert codes(found) == [("BG402", 20)]


def test_lock_key_deleted_only_through_a_key_store(bg):
    found = bg.files(
        {
            "clients.py": "import redis\nr = redis.Redis()\nLOCK_KEY = 'reports:nightly'\n",
            "jobs.py": """
                from celery import Celery
                from clients import LOCK_KEY, r

                app = Celery("proj")

                class Registry:
                    def delete(self, name):
                        return name

                registry = Registry()
                local = {}

                @app.task
                def nightly():
                    with r.lock(LOCK_KEY, timeout=600):
                        pass
                    registry.delete(LOCK_KEY)
                    r.delete(LOCK_KEY)
                """,
        },
        select=["BG503"],
    )
    assert codes(found) == [("BG503", 19)]


def test_join_in_a_shutdown_path_only_on_known_joinables(bg):
    found = bg.code(
        """
        import multiprocessing
        import signal
        import threading

        class Batch:
            def join(self):
                return ",".join(self.parts)

        class Pump(threading.Thread):
            def run(self):
                pass

        WORKER = threading.Thread(target=print)
        PUMP = Pump()
        CHILD = multiprocessing.Process(target=print)
        BATCH = Batch()
        THREADS = []

        def stop(signum, frame):
            WORKER.join()
            PUMP.join()
            CHILD.join()
            BATCH.join()
            for t in THREADS:
                t.join()

        signal.signal(signal.SIGTERM, stop)
        """,
        select=["BG405"],
    )
    assert codes(found) == [("BG405", 21), ("BG405", 22), ("BG405", 23)]


def test_pool_never_used_has_nothing_to_lose(bg):
    found = bg.code(
        """
        import multiprocessing
        from multiprocessing.pool import ThreadPool

        IDLE = multiprocessing.Pool(2)
        BUSY = multiprocessing.Pool(2)
        HANDED = ThreadPool(2)

        class Channel:
            def __init__(self):
                self.pool = ThreadPool(4)

        def work(item):
            BUSY.apply_async(print, (item,))

        def offload(item):
            return run_on(HANDED, print, item)
        """,
        select=["BG401"],
    )
    assert codes(found) == [("BG401", 6), ("BG401", 7)]


def test_pool_handed_to_a_helper_or_kept_in_a_table_is_used(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/pools.py": """
                import multiprocessing

                OFFLOAD = multiprocessing.Pool(1)
                LISTED = multiprocessing.Pool(1)

                def run_with_context(pool, fn):
                    return pool.apply_async(fn)

                def offload(fn):
                    return run_with_context(OFFLOAD, fn)
                """,
            "app/registry.py": """
                from app import pools

                POOLS = {"listed": pools.LISTED}
                """,
        },
        select=["BG401"],
    )
    assert codes(found) == [("BG401", 4), ("BG401", 5)]


def test_polling_until_a_clock_deadline_or_in_an_unjoined_daemon_thread(bg):
    found = bg.code(
        """
        import threading
        from time import sleep, time

        def ready():
            return False

        def wait_a_bit():
            start = time()
            while time() < start + 5.0:
                sleep(1.0)

        def watch():
            while not ready():
                sleep(1.0)

        def wait_forever():
            while not ready():
                sleep(1.0)

        threading.Thread(target=wait_a_bit).start()
        threading.Thread(target=watch, daemon=True).start()
        threading.Thread(target=wait_forever).start()
        """,
        select=["BG206"],
    )
    assert codes(found) == [("BG206", 18)]
