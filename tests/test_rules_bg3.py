"""BG301-BG304: queues and executors must be bounded.

Each test is one shape the rule must flag, or one it must not flag (the
rule's page in ``rules/`` lists both: "Example" and "When it stays silent").
Sources start with a newline, so line 1 is empty and the first line of code
is line 2.
"""

from __future__ import annotations

from conftest import codes

# ---------------------------------------------------------------------------
# BG301 unbounded-queue: must flag


def test_bg301_every_constructor_without_maxsize(bg):
    found = bg.code(
        """
        import asyncio
        import multiprocessing
        import queue

        a = queue.Queue()
        b = queue.LifoQueue()
        c = queue.PriorityQueue()
        d = asyncio.Queue()
        e = asyncio.LifoQueue()
        f = asyncio.PriorityQueue()
        g = multiprocessing.Queue()
        h = multiprocessing.JoinableQueue()

        def fan_in(stream):
            while True:
                item = stream.read()
                a.put(item)
                b.put(item)
                c.put(item)
                d.put_nowait(item)
                e.put_nowait(item)
                f.put_nowait(item)
                g.put(item)
                h.put(item)
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG301", line) for line in range(6, 14)]
    assert "is fed in a loop in `fan_in()`" in found[0].message


def test_bg301_maxsize_zero_and_negative(bg):
    found = bg.code(
        """
        import asyncio
        import multiprocessing
        import queue

        a = queue.Queue(0)
        b = queue.LifoQueue(maxsize=0)
        c = queue.PriorityQueue(maxsize=-1)
        d = asyncio.Queue(maxsize=0)
        e = multiprocessing.JoinableQueue(-1)

        async def pump(reader):
            async for line in reader:
                a.put(line)
                b.put(line)
                c.put(line)
                d.put_nowait(line)
                e.put(line)
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG301", 6), ("BG301", 7), ("BG301", 8), ("BG301", 9), ("BG301", 10)]
    assert "maxsize=-1" in found[2].message
    assert "maxsize <= 0" in found[2].explanation


def test_bg301_simple_queue(bg):
    found = bg.code(
        """
        import queue

        jobs = queue.SimpleQueue()

        def listen(sock):
            while True:
                jobs.put(sock.recv(4096))
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG301", 4)]
    assert found[0].message == "Unbounded `queue.SimpleQueue()` is fed in a loop in `listen()`: it grows without bound"


def test_bg301_import_alias_and_kept_on_self(bg):
    found = bg.code(
        """
        from asyncio import Queue as AQ
        from queue import LifoQueue

        class Consumer:
            def __init__(self):
                self.inbox = AQ()
                self.stack = LifoQueue()

            async def read(self, ws):
                async for message in ws:
                    self.inbox.put_nowait(message)
                    self.stack.put(message)
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG301", 7), ("BG301", 8)]
    assert found[0].message == "`asyncio.Queue()` with no maxsize is fed in a loop in `read()`: it grows without bound"
    assert "fed in a loop in `read()`" in found[0].message


def test_bg301_multiprocessing_context_queue_is_named_plainly(bg):
    found = bg.code(
        """
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        results = ctx.Queue()

        def produce(sock):
            while True:
                results.put(sock.recv(1024))
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG301", 5)]
    assert found[0].message == "`multiprocessing.Queue()` with no maxsize is fed in a loop in `produce()`: it grows without bound"


def test_bg301_maxsize_folded_from_another_module_is_zero(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/settings.py": """
                QUEUE_SIZE = 0
                """,
            "app/work.py": """
                import queue
                from app import settings
                from app.settings import QUEUE_SIZE

                a = queue.Queue(maxsize=QUEUE_SIZE)
                b = queue.Queue(settings.QUEUE_SIZE - 1)
                """,
            "app/feed.py": """
                from app import work

                def feed(source):
                    while True:
                        item = source.read()
                        work.a.put(item)
                        work.b.put(item)
                """,
        },
        select=["BG3"],
    )
    assert codes(found) == [("BG301", 6), ("BG301", 7)]
    assert "fed in a loop in `feed()`" in found[0].message
    assert "maxsize=0" in found[0].message
    assert "maxsize=-1" in found[1].message


# ---------------------------------------------------------------------------
# BG301 unbounded-queue: must not flag


def test_bg301_positive_literal(bg):
    found = bg.code(
        """
        import asyncio
        import multiprocessing
        import queue

        a = queue.Queue(100)
        b = queue.PriorityQueue(maxsize=10)
        c = asyncio.Queue(maxsize=1)
        d = multiprocessing.Queue(maxsize=50)
        e = multiprocessing.JoinableQueue(8)
        """,
        select=["BG3"],
    )
    assert codes(found) == []


def test_bg301_positive_constant_from_another_module(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/limits.py": """
                QUEUE_SIZE = 500
                """,
            "app/work.py": """
                import queue
                from app import limits
                from app.limits import QUEUE_SIZE

                a = queue.Queue(maxsize=QUEUE_SIZE)
                b = queue.Queue(limits.QUEUE_SIZE * 2)
                """,
        },
        select=["BG3"],
    )
    assert codes(found) == []


def test_bg301_unfoldable_settings_value(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/config.py": """
                import os

                QUEUE_SIZE = int(os.environ["QUEUE_SIZE"])
                """,
            "app/work.py": """
                import queue
                from django.conf import settings
                from app.config import QUEUE_SIZE

                a = queue.Queue(maxsize=settings.WORK_QUEUE_SIZE)
                b = queue.Queue(maxsize=QUEUE_SIZE)

                def make(size):
                    return queue.Queue(size)
                """,
        },
        select=["BG3"],
    )
    assert codes(found) == []


def test_bg301_not_a_queue_constructor(bg):
    found = bg.code(
        """
        import collections

        class Queue:
            pass

        a = Queue()
        b = collections.deque(maxlen=10)
        """,
        select=["BG3"],
    )
    assert codes(found) == []


# ---------------------------------------------------------------------------
# BG302 unbounded-executor-map: must flag


def test_bg302_generator_expression(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor

        def run(items, handle):
            with ThreadPoolExecutor(max_workers=4) as pool:
                return list(pool.map(handle, (item for item in items if item)))
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG302", 6)]
    assert "a generator expression" in found[0].message


def test_bg302_infinite_itertools(bg):
    found = bg.code(
        """
        import itertools
        from concurrent.futures import ProcessPoolExecutor

        POOL = ProcessPoolExecutor()

        def run(handle):
            POOL.map(handle, itertools.count())
            POOL.map(handle, itertools.cycle([1, 2]))
            POOL.map(handle, itertools.repeat(1))
        """,
        select=["BG302"],
    )
    assert codes(found) == [("BG302", 8), ("BG302", 9), ("BG302", 10)]
    assert "`itertools.count()`" in found[0].message


def test_bg302_open_file(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor

        def run(path, handle):
            pool = ThreadPoolExecutor()
            pool.map(handle, open(path))
            with open(path) as lines:
                pool.map(handle, lines)
        """,
        select=["BG302"],
    )
    assert codes(found) == [("BG302", 6), ("BG302", 8)]
    assert "a file" in found[1].message


def test_bg302_project_generator_function_in_another_module(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/source.py": """
                def pending_orders(db):
                    for row in db.query("select id from orders"):
                        yield row
                """,
            "app/run.py": """
                from concurrent.futures import ThreadPoolExecutor
                from app import source
                from app.source import pending_orders

                EXECUTOR = ThreadPoolExecutor(max_workers=8)

                def run(db, handle):
                    list(EXECUTOR.map(handle, pending_orders(db)))
                    list(EXECUTOR.map(handle, source.pending_orders(db)))
                """,
        },
        select=["BG302"],
    )
    assert codes(found) == [("BG302", 9), ("BG302", 10)]
    assert "the generator `pending_orders()`" in found[0].message


def test_bg302_database_cursor(bg):
    found = bg.code(
        """
        import sqlite3
        from concurrent.futures import ThreadPoolExecutor

        def run(path, handle):
            conn = sqlite3.connect(path)
            pool = ThreadPoolExecutor()
            cursor = conn.cursor()
            cursor.execute("select id from orders")
            pool.map(handle, cursor)
            pool.map(handle, conn.execute("select id from orders"))
        """,
        select=["BG302"],
    )
    assert codes(found) == [("BG302", 10), ("BG302", 11)]
    assert "a database cursor" in found[0].message


def test_bg302_cursor_of_a_connection_passed_in(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor

        def run(conn, handle):
            pool = ThreadPoolExecutor()
            rows = conn.cursor()
            pool.map(handle, rows)
            pool.map(handle, conn.execute("select id from orders"))
        """,
        select=["BG302"],
    )
    assert codes(found) == [("BG302", 7), ("BG302", 8)]


def test_bg302_generator_bound_to_a_local_name(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor

        def run(items, handle):
            pool = ThreadPoolExecutor()
            todo = (item for item in items)
            pool.map(handle, todo)
        """,
        select=["BG302"],
    )
    assert codes(found) == [("BG302", 7)]


def test_bg302_message_without_target_version_314(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor

        def run(items, handle):
            with ThreadPoolExecutor() as pool:
                pool.map(handle, (i for i in items))
        """,
        config='target-version = "py312"\n',
        select=["BG302"],
    )
    assert codes(found) == [("BG302", 6)]
    assert "Submit in bounded batches" in found[0].explanation


def test_bg302_message_mentions_buffersize_on_py314(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor

        def run(items, handle):
            with ThreadPoolExecutor() as pool:
                pool.map(handle, (i for i in items))
        """,
        config='target-version = "py314"\n',
        select=["BG302"],
    )
    assert codes(found) == [("BG302", 6)]
    assert "Pass `buffersize=` (Python 3.14+)" in found[0].explanation


# ---------------------------------------------------------------------------
# BG302 unbounded-executor-map: must not flag


def test_bg302_sized_literals_and_range(bg):
    found = bg.code(
        """
        import itertools
        from concurrent.futures import ThreadPoolExecutor

        def run(handle):
            with ThreadPoolExecutor() as pool:
                pool.map(handle, [1, 2, 3])
                pool.map(handle, (1, 2))
                pool.map(handle, {1, 2})
                pool.map(handle, [x * 2 for x in range(10)])
                pool.map(handle, range(1000))
                pool.map(handle, itertools.repeat(1, 5))
        """,
        select=["BG302"],
    )
    assert codes(found) == []


def test_bg302_buffersize_given(bg):
    found = bg.code(
        """
        import itertools
        from concurrent.futures import ThreadPoolExecutor

        def run(items, handle):
            with ThreadPoolExecutor() as pool:
                pool.map(handle, (i for i in items), buffersize=16)
                pool.map(handle, itertools.count(), buffersize=4)
        """,
        config='target-version = "py314"\n',
        select=["BG302"],
    )
    assert codes(found) == []


def test_bg302_unknown_iterable_and_other_map_methods(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor

        def run(items, handle, conn):
            rows = conn.execute("select 1").fetchall()
            with ThreadPoolExecutor() as pool:
                pool.map(handle, items)
                pool.map(handle, rows)
            list(map(handle, (i for i in items)))
        """,
        select=["BG302"],
    )
    assert codes(found) == []


# ---------------------------------------------------------------------------
# BG303 unbounded-task-fanout: must flag


def test_bg303_create_task_in_async_for(bg):
    found = bg.code(
        """
        import asyncio

        async def handle(message):
            return message

        async def consume(stream):
            async for message in stream:
                asyncio.create_task(handle(message))
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG303", 9)]
    assert "`async for` loop" in found[0].message


def test_bg303_ensure_future_in_while_true_consumer(bg):
    found = bg.code(
        """
        import asyncio

        async def handle(message):
            return message

        async def consume(inbox):
            while True:
                message = await inbox.get()
                asyncio.ensure_future(handle(message))
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG303", 10)]
    assert "`while` loop" in found[0].message


def test_bg303_executor_submit_over_kafka_consumer(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor
        from kafka import KafkaConsumer

        POOL = ThreadPoolExecutor(max_workers=8)

        def handle(record):
            return record

        def consume():
            consumer = KafkaConsumer("orders")
            for record in consumer:
                POOL.submit(handle, record)

        def consume_inline():
            for record in KafkaConsumer("refunds"):
                POOL.submit(handle, record)
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG303", 13), ("BG303", 17)]


def test_bg303_taskgroup_and_run_in_executor(bg):
    found = bg.code(
        """
        import asyncio

        async def handle(message):
            return message

        async def grouped(stream):
            async with asyncio.TaskGroup() as tg:
                async for message in stream:
                    tg.create_task(handle(message))

        async def blocking(stream):
            loop = asyncio.get_running_loop()
            async for message in stream:
                loop.run_in_executor(None, print, message)
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG303", 10), ("BG303", 15)]


def test_bg303_submit_over_endless_itertools_count(bg):
    found = bg.code(
        """
        import itertools
        from concurrent.futures import ThreadPoolExecutor

        EXECUTOR = ThreadPoolExecutor()

        def poll(fetch):
            for page in itertools.count():
                EXECUTOR.submit(fetch, page)
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG303", 9)]


# ---------------------------------------------------------------------------
# BG303 unbounded-task-fanout: must not flag


def test_bg303_loops_over_lists_and_range(bg):
    found = bg.code(
        """
        import asyncio
        from concurrent.futures import ThreadPoolExecutor

        POOL = ThreadPoolExecutor()

        async def handle(message):
            return message

        async def fixed():
            for message in [1, 2, 3]:
                asyncio.create_task(handle(message))

        def numbered():
            for i in range(100):
                POOL.submit(print, i)

        async def batch(messages):
            for message in messages:
                asyncio.create_task(handle(message))
        """,
        select=["BG3"],
    )
    assert codes(found) == []


def test_bg303_semaphore_held(bg):
    found = bg.code(
        """
        import asyncio

        async def handle(message):
            return message

        async def consume(stream):
            limit = asyncio.Semaphore(10)
            async for message in stream:
                await limit.acquire()
                task = asyncio.create_task(handle(message))
                task.add_done_callback(lambda _: limit.release())
        """,
        select=["BG3"],
    )
    assert codes(found) == []


def test_bg303_count_in_flight_checked(bg):
    found = bg.code(
        """
        import asyncio

        async def handle(message):
            return message

        async def consume(stream):
            running = set()
            async for message in stream:
                if len(running) >= 100:
                    _, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                running.add(asyncio.create_task(handle(message)))
        """,
        select=["BG3"],
    )
    assert codes(found) == []


def test_bg303_outside_a_loop_and_loops_with_a_condition(bg):
    found = bg.code(
        """
        import asyncio

        async def handle(message):
            return message

        async def once(message):
            asyncio.create_task(handle(message))

        async def until_stopped(inbox, stop):
            while not stop.is_set():
                asyncio.create_task(handle(await inbox.get()))
        """,
        select=["BG3"],
    )
    assert codes(found) == []


# ---------------------------------------------------------------------------
# BG304 work-dropped-when-full: must flag


def test_bg304_except_queue_full_pass(bg):
    found = bg.code(
        """
        import queue

        JOBS = queue.Queue(maxsize=100)

        def offer(job):
            try:
                JOBS.put_nowait(job)
            except queue.Full:
                pass
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG304", 9)]
    assert "`except queue.Full`" in found[0].message


def test_bg304_except_asyncio_queue_full_pass(bg):
    found = bg.code(
        """
        import asyncio

        INBOX = asyncio.Queue(maxsize=100)

        def offer(job):
            try:
                INBOX.put_nowait(job)
            except asyncio.QueueFull:
                pass
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG304", 9)]
    assert "`except asyncio.QueueFull`" in found[0].message


def test_bg304_imported_name_in_a_tuple_with_bare_return(bg):
    found = bg.code(
        """
        from queue import Full, Queue

        JOBS = Queue(maxsize=100)

        def offer(job):
            try:
                JOBS.put(job, block=False)
            except (ValueError, Full):
                return
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG304", 9)]


def test_bg304_suppress_queue_full(bg):
    found = bg.code(
        """
        import contextlib
        import queue

        JOBS = queue.Queue(maxsize=100)

        def offer(job):
            with contextlib.suppress(queue.Full):
                JOBS.put_nowait(job)
        """,
        select=["BG3"],
    )
    assert codes(found) == [("BG304", 8)]
    assert "`suppress(queue.Full)`" in found[0].message


# ---------------------------------------------------------------------------
# BG304 work-dropped-when-full: must not flag


def test_bg304_handler_reraises(bg):
    found = bg.code(
        """
        import queue

        JOBS = queue.Queue(maxsize=100)

        class Busy(Exception):
            pass

        def offer(job):
            try:
                JOBS.put_nowait(job)
            except queue.Full:
                raise

        def offer_or_reject(job):
            try:
                JOBS.put_nowait(job)
            except queue.Full as exc:
                raise Busy("try later") from exc
        """,
        select=["BG3"],
    )
    assert codes(found) == []


def test_bg304_handler_logs_or_counts(bg):
    found = bg.code(
        """
        import logging
        import queue

        log = logging.getLogger(__name__)
        JOBS = queue.Queue(maxsize=100)
        dropped = 0

        def offer_logged(job):
            try:
                JOBS.put_nowait(job)
            except queue.Full:
                log.warning("queue full, dropped %s", job)

        def offer_counted(job):
            global dropped
            try:
                JOBS.put_nowait(job)
            except queue.Full:
                dropped += 1

        def offer_metric(job, metrics):
            try:
                JOBS.put_nowait(job)
            except queue.Full:
                metrics.dropped_jobs.inc()
        """,
        select=["BG3"],
    )
    assert codes(found) == []


def test_bg304_handler_blocks_or_rejects_upstream(bg):
    found = bg.code(
        """
        import asyncio
        import queue

        JOBS = queue.Queue(maxsize=100)
        INBOX = asyncio.Queue(maxsize=100)

        def offer_blocking(job):
            try:
                JOBS.put_nowait(job)
            except queue.Full:
                JOBS.put(job, timeout=5)

        def offer_or_refuse(job):
            try:
                INBOX.put_nowait(job)
            except asyncio.QueueFull:
                return False
            return True
        """,
        select=["BG3"],
    )
    assert codes(found) == []


def test_bg304_other_exceptions(bg):
    found = bg.code(
        """
        import queue

        JOBS = queue.Queue(maxsize=100)

        def take():
            try:
                return JOBS.get_nowait()
            except queue.Empty:
                pass
        """,
        select=["BG3"],
    )
    assert codes(found) == []
