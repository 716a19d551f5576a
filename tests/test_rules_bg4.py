"""BG401-BG406: stop cleanly, and within the budget.

Each test is one shape the rule must flag, or one it must not flag (the
rule's page in ``rules/`` lists both: "Example" and "When it stays silent").
Sources start with a newline, so line 1 is empty and the first line of code
is line 2.
"""

from __future__ import annotations

import pytest

from conftest import codes

SCRIPTS = 'replicas = 1\n[project.scripts]\nsvc = "svc.main:main"\n'

# ---------------------------------------------------------------------------
# BG401 executor-never-shut-down: must flag


def test_bg401_module_globals_never_shut_down(bg):
    found = bg.code(
        """
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
        from apscheduler.schedulers.background import BackgroundScheduler

        EXECUTOR = ThreadPoolExecutor(max_workers=4)
        PROCESSES = ProcessPoolExecutor()
        POOL = multiprocessing.Pool(4)
        SCHEDULER = BackgroundScheduler()

        def submit(job):
            EXECUTOR.submit(job)
            PROCESSES.submit(job)
            POOL.apply_async(job)
            SCHEDULER.add_job(job)
        """,
        select=["BG401"],
    )
    assert codes(found) == [("BG401", 6), ("BG401", 7), ("BG401", 8), ("BG401", 9)]
    assert "kept in `EXECUTOR`" in found[0].message
    assert "shutdown()" in found[0].message
    assert "close() and join()" in found[2].message
    assert "This scheduler" in found[3].message


def test_bg401_self_attribute_executor(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor

        class Relay:
            def __init__(self):
                self.executor = ThreadPoolExecutor(max_workers=2)

            def send(self, event):
                self.executor.submit(print, event)
        """,
        select=["BG401"],
    )
    assert codes(found) == [("BG401", 6)]
    assert "kept in `executor`" in found[0].message


def test_bg401_class_attribute_and_asyncio_scheduler(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor
        from apscheduler.schedulers.asyncio import AsyncIOScheduler

        class Service:
            pool = ThreadPoolExecutor()

            def handle(self, job):
                self.pool.submit(job)

        scheduler = AsyncIOScheduler()
        scheduler.start()
        """,
        select=["BG401"],
    )
    assert codes(found) == [("BG401", 6), ("BG401", 11)]


def test_bg401_pool_joined_but_never_closed(bg):
    found = bg.code(
        """
        import multiprocessing

        POOL = multiprocessing.Pool(4)

        def stop():
            POOL.join()
        """,
        select=["BG401"],
    )
    assert codes(found) == [("BG401", 4)]


def test_bg401_passing_the_executor_is_not_a_shutdown(bg):
    found = bg.code(
        """
        import atexit
        from concurrent.futures import ThreadPoolExecutor

        EXECUTOR = ThreadPoolExecutor(max_workers=4)
        atexit.register(print, EXECUTOR)
        """,
        select=["BG401"],
    )
    assert codes(found) == [("BG401", 5)]


# ---------------------------------------------------------------------------
# BG401 executor-never-shut-down: must not flag


def test_bg401_context_managers_and_locals(bg):
    found = bg.code(
        """
        import multiprocessing
        from concurrent.futures import ThreadPoolExecutor

        def run(jobs):
            with ThreadPoolExecutor(max_workers=4) as pool:
                list(pool.map(print, jobs))
            with multiprocessing.Pool(2) as procs:
                procs.map(print, jobs)
            local = ThreadPoolExecutor()
            local.submit(print)
        """,
        select=["BG401"],
    )
    assert codes(found) == []


def test_bg401_shut_down_in_another_module(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/pools.py": """
                import multiprocessing
                from concurrent.futures import ThreadPoolExecutor
                from apscheduler.schedulers.background import BackgroundScheduler

                EXECUTOR = ThreadPoolExecutor(max_workers=4)
                POOL = multiprocessing.Pool(4)
                SCHEDULER = BackgroundScheduler()
                """,
            "app/stop.py": """
                from app import pools
                from app.pools import EXECUTOR

                def stop():
                    EXECUTOR.shutdown(wait=True)
                    pools.POOL.close()
                    pools.POOL.join()
                    pools.SCHEDULER.shutdown()
                """,
        },
        select=["BG401"],
    )
    assert codes(found) == []


def test_bg401_shut_down_in_atexit_hook_and_signal_handler(bg):
    found = bg.code(
        """
        import atexit
        import signal
        from concurrent.futures import ThreadPoolExecutor

        HOOKED = ThreadPoolExecutor(max_workers=4)
        SIGNALLED = ThreadPoolExecutor(max_workers=4)

        @atexit.register
        def _close():
            HOOKED.shutdown(wait=True)

        def _on_term(signum, frame):
            SIGNALLED.shutdown(cancel_futures=True)

        signal.signal(signal.SIGTERM, _on_term)
        """,
        select=["BG401"],
    )
    assert codes(found) == []


def test_bg401_atexit_register_of_the_bound_shutdown(bg):
    found = bg.code(
        """
        import atexit
        from concurrent.futures import ThreadPoolExecutor

        EXECUTOR = ThreadPoolExecutor(max_workers=4)
        atexit.register(EXECUTOR.shutdown)
        """,
        select=["BG401"],
    )
    assert codes(found) == []


def test_bg401_self_attribute_shut_down_from_another_module(bg):
    found = bg.files(
        {
            "svc/__init__.py": "",
            "svc/relay.py": """
                from concurrent.futures import ThreadPoolExecutor

                class Relay:
                    def __init__(self):
                        self.executor = ThreadPoolExecutor(max_workers=2)
                """,
            "svc/main.py": """
                from svc.relay import Relay

                RELAY = Relay()

                def stop():
                    RELAY.executor.shutdown(wait=True)
                """,
        },
        select=["BG401"],
    )
    assert codes(found) == []


# ---------------------------------------------------------------------------
# BG402 shutdown-without-wait: must flag


def test_bg402_executor_shutdown_wait_false(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor

        EXECUTOR = ThreadPoolExecutor(max_workers=4)

        def stop():
            EXECUTOR.shutdown(wait=False)

        def stop_positional():
            EXECUTOR.shutdown(False)
        """,
        select=["BG402"],
    )
    assert codes(found) == [("BG402", 7), ("BG402", 10)]
    assert "cancel_futures=True" in found[0].explanation


def test_bg402_apscheduler_shutdown_wait_false(bg):
    found = bg.code(
        """
        from apscheduler.schedulers.background import BackgroundScheduler

        SCHEDULER = BackgroundScheduler()

        def stop():
            SCHEDULER.shutdown(wait=False)
        """,
        select=["BG402"],
    )
    assert codes(found) == [("BG402", 7)]
    assert "abandons the jobs that are running" in found[0].message


def test_bg402_pool_terminate_without_close_and_join(bg):
    found = bg.code(
        """
        import multiprocessing

        POOL = multiprocessing.Pool(4)

        def stop():
            POOL.terminate()

        def closed_but_not_joined():
            POOL.close()
            POOL.terminate()
            POOL.join()

        def joined_only_after():
            POOL.terminate()
            POOL.close()
            POOL.join()
        """,
        select=["BG402"],
    )
    assert codes(found) == [("BG402", 7), ("BG402", 11), ("BG402", 15)]


def test_bg402_task_cancel_in_sigterm_handler_never_awaited(bg):
    found = bg.code(
        """
        import asyncio
        import signal

        TASKS = set()

        def on_term():
            for task in TASKS:
                task.cancel()

        async def main():
            loop = asyncio.get_running_loop()
            loop.add_signal_handler(signal.SIGTERM, on_term)
            await asyncio.sleep(100)
        """,
        select=["BG402"],
    )
    assert codes(found) == [("BG402", 9)]
    assert "`task.cancel()` in a shutdown path" in found[0].message


def test_bg402_task_cancel_in_a_callee_of_the_handler(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/tasks.py": """
                TASKS = []

                def cancel_all():
                    for t in TASKS:
                        t.cancel()
                """,
            "app/main.py": """
                import signal
                from app.tasks import cancel_all

                def handler(signum, frame):
                    cancel_all()

                signal.signal(signal.SIGTERM, handler)
                """,
        },
        select=["BG402"],
    )
    assert codes(found) == [("BG402", 6)]
    assert found[0].location.path == "app/tasks.py"


def test_bg402_task_cancel_in_shutdown_event_never_awaited(bg):
    found = bg.code(
        """
        from fastapi import FastAPI

        app = FastAPI()

        @app.on_event("shutdown")
        async def stop():
            app.state.poller.cancel()
        """,
        select=["BG402"],
    )
    assert codes(found) == [("BG402", 8)]


# ---------------------------------------------------------------------------
# BG402 shutdown-without-wait: must not flag


def test_bg402_cancel_futures_or_waiting_shutdown(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor
        from apscheduler.schedulers.background import BackgroundScheduler

        EXECUTOR = ThreadPoolExecutor(max_workers=4)
        SCHEDULER = BackgroundScheduler()

        def stop():
            EXECUTOR.shutdown(wait=False, cancel_futures=True)
            EXECUTOR.shutdown(False, True)
            EXECUTOR.shutdown(wait=True)
            EXECUTOR.shutdown()
            SCHEDULER.shutdown()
        """,
        select=["BG402"],
    )
    assert codes(found) == []


def test_bg402_bounded_wait_follows(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor, wait
        from apscheduler.schedulers.background import BackgroundScheduler

        EXECUTOR = ThreadPoolExecutor(max_workers=4)
        SCHEDULER = BackgroundScheduler()

        def stop(futures, worker):
            EXECUTOR.shutdown(wait=False)
            wait(futures, timeout=10)

        def stop_scheduler(worker):
            SCHEDULER.shutdown(wait=False)
            worker.join(5)
        """,
        select=["BG402"],
    )
    assert codes(found) == []


def test_bg402_terminate_after_close_and_join(bg):
    found = bg.code(
        """
        import multiprocessing

        POOL = multiprocessing.Pool(4)

        def stop():
            POOL.close()
            POOL.join()
            POOL.terminate()
        """,
        select=["BG402"],
    )
    assert codes(found) == []


def test_bg402_cancel_then_bounded_wait_or_gather(bg):
    found = bg.code(
        """
        import asyncio
        from fastapi import FastAPI

        app = FastAPI()
        TASKS = set()

        @app.on_event("shutdown")
        async def stop():
            for task in TASKS:
                task.cancel()
            await asyncio.wait(TASKS, timeout=5)

        @app.on_event("shutdown")
        async def stop_gathered():
            for task in TASKS:
                task.cancel()
            await asyncio.gather(*TASKS, return_exceptions=True)

        @app.on_event("shutdown")
        async def stop_one():
            app.state.poller.cancel()
            await app.state.poller
        """,
        select=["BG402"],
    )
    assert codes(found) == []


def test_bg402_cancel_outside_shutdown_paths_and_timers(bg):
    found = bg.code(
        """
        import signal
        import threading

        TIMER = threading.Timer(5, print)

        def on_term(signum, frame):
            TIMER.cancel()

        signal.signal(signal.SIGTERM, on_term)

        def not_a_shutdown_path(task):
            task.cancel()
        """,
        select=["BG402"],
    )
    assert codes(found) == []


# ---------------------------------------------------------------------------
# BG403 daemon-thread-does-durable-work: must flag


def test_bg403_daemon_thread_commits_publishes_enqueues(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/tasks.py": """
                from celery import shared_task

                @shared_task
                def send_receipt(order_id):
                    pass
                """,
            "app/threads.py": """
                import threading
                from app.tasks import send_receipt

                def flush_orders(session):
                    session.commit()

                def publish(channel):
                    channel.basic_publish(exchange="", routing_key="orders", body=b"x")

                def enqueue(order_id):
                    send_receipt.delay(order_id)

                def start(session, channel):
                    threading.Thread(target=flush_orders, args=(session,), daemon=True).start()
                    threading.Thread(target=publish, args=(channel,), daemon=True).start()
                    threading.Thread(target=enqueue, args=(1,), daemon=True).start()
                """,
        },
        select=["BG403"],
    )
    assert codes(found) == [("BG403", 15), ("BG403", 16), ("BG403", 17)]
    assert "`session.commit()`" in found[0].message
    assert "?" not in found[0].message.split("(", 1)[1].split(")", 1)[0]
    assert "`send_receipt.delay()`" in found[2].message


def test_bg403_callee_in_another_module_commits(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/db.py": """
                from sqlalchemy.orm import Session

                def save_order(session: Session, order):
                    session.add(order)
                    session.commit()
                """,
            "app/outbox.py": """
                from app.db import save_order

                def relay(session, order):
                    save_order(session, order)
                """,
            "app/threads.py": """
                import threading
                from app.outbox import relay

                def start(session, order):
                    threading.Thread(target=relay, args=(session, order), daemon=True).start()
                """,
        },
        select=["BG403"],
    )
    assert codes(found) == [("BG403", 6)]
    assert found[0].message.startswith("This daemon thread runs `relay() -> save_order()`, which writes durably (`Session.commit()`)")
    # the chain as notes, at the calls: relay() calls save_order() (outbox.py 5:5), which commits (db.py 6:5)
    assert [(r.path, r.line, r.column, r.message) for r in found[0].related] == [
        ("app/outbox.py", 5, 5, "-> save_order()"),
        ("app/db.py", 6, 5, "writes durably: `Session.commit()`"),
    ]


def test_bg403_not_for_a_write_more_than_two_calls_from_the_target(bg):
    # A write deep down (a settings save on some first-use branch) is not what the thread does.
    found = bg.code(
        """
        import threading

        def save_settings(store):
            store.save()

        def load_settings(store):
            save_settings(store)

        def settings(store):
            load_settings(store)

        def refresh(store):
            settings(store)

        def start(store):
            threading.Thread(target=refresh, args=(store,), daemon=True).start()
        """,
        select=["BG403"],
    )
    assert codes(found) == []


def test_bg403_write_two_calls_from_the_target_is_flagged_with_its_chain(bg):
    found = bg.code(
        """
        import threading

        def save_settings(store):
            store.save()

        def settings(store):
            save_settings(store)

        def refresh(store):
            settings(store)

        def start(store):
            threading.Thread(target=refresh, args=(store,), daemon=True).start()
        """,
        select=["BG403"],
    )
    assert codes(found) == [("BG403", 14)]
    assert "runs `refresh() -> settings() -> save_settings()`" in found[0].explanation
    # notes at each call on the way, then at the write
    assert [(r.line, r.column, r.message) for r in found[0].related] == [
        (11, 5, "-> settings()"),
        (8, 5, "-> save_settings()"),
        (5, 5, "writes durably: `store.save()`"),
    ]


def test_bg403_daemon_attribute_and_set_daemon(bg):
    found = bg.code(
        """
        import threading

        def relay(session):
            session.commit()

        def start(session):
            t = threading.Thread(target=relay, args=(session,))
            t.daemon = True
            t.start()
            u = threading.Thread(target=relay, args=(session,))
            u.setDaemon(True)
            u.start()
        """,
        select=["BG403"],
    )
    assert codes(found) == [("BG403", 8), ("BG403", 11)]


def test_bg403_method_target(bg):
    found = bg.code(
        """
        import threading

        class Relay:
            def __init__(self, session):
                self.session = session
                self.thread = threading.Thread(target=self.run, daemon=True)

            def run(self):
                self.session.commit()
        """,
        select=["BG403"],
    )
    assert codes(found) == [("BG403", 7)]


# ---------------------------------------------------------------------------
# BG403 daemon-thread-does-durable-work: must not flag


def test_bg403_disposable_work(bg):
    found = bg.code(
        """
        import threading

        def push_metrics(statsd):
            statsd.gauge("queue.depth", 3)

        def warm_cache(cache, keys):
            for key in keys:
                cache.get(key)

        def start(statsd, cache):
            threading.Thread(target=push_metrics, args=(statsd,), daemon=True).start()
            threading.Thread(target=warm_cache, args=(cache, ["a"]), daemon=True).start()
        """,
        select=["BG403"],
    )
    assert codes(found) == []


def test_bg403_non_daemon_threads(bg):
    found = bg.code(
        """
        import threading

        def relay(session):
            session.commit()

        def start(session):
            threading.Thread(target=relay, args=(session,)).start()
            threading.Thread(target=relay, args=(session,), daemon=False).start()
            t = threading.Thread(target=relay, args=(session,))
            t.daemon = False
            t.start()
        """,
        select=["BG403"],
    )
    assert codes(found) == []


# ---------------------------------------------------------------------------
# BG404 no-sigterm-handler: must flag


def test_bg404_main_block_starts_a_thread(bg):
    found = bg.code(
        """
        import threading

        def work():
            outbox.commit()

        if __name__ == "__main__":
            threading.Thread(target=work).start()
        """,
        select=["BG404"],
    )
    assert codes(found) == [("BG404", 7)]
    assert found[0].message == "This `__main__` block starts background work that writes durably, with no SIGTERM handler"
    assert found[0].explanation.startswith("It starts `Thread.start()`")


def test_bg404_main_block_starts_apscheduler(bg):
    found = bg.code(
        """
        from apscheduler.schedulers.blocking import BlockingScheduler

        def main():
            scheduler = BlockingScheduler()
            scheduler.add_job(outbox.commit, "interval", seconds=5)
            outbox.commit()
            scheduler.start()

        if __name__ == "__main__":
            main()
        """,
        select=["BG404"],
    )
    assert codes(found) == [("BG404", 10)]
    assert "`BlockingScheduler.start()`" in found[0].explanation


def test_bg404_main_block_submits_to_an_executor(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor

        if __name__ == "__main__":
            pool = ThreadPoolExecutor()
            pool.submit(outbox.commit)
            outbox.commit()
        """,
        select=["BG404"],
    )
    assert codes(found) == [("BG404", 4)]
    assert "`ThreadPoolExecutor.submit()`" in found[0].explanation


def test_bg404_main_block_runs_an_endless_consumer_loop(bg):
    found = bg.files(
        {
            "worker/__init__.py": "",
            "worker/consume.py": """
                def consume(poll, producer):
                    while True:
                        producer.publish(poll())
                """,
            "worker/run.py": """
                from worker.consume import consume

                if __name__ == "__main__":
                    consume(print, print)
                """,
        },
        select=["BG404"],
    )
    assert codes(found) == [("BG404", 4)]
    assert "an endless loop in `consume()`" in found[0].explanation


def test_bg404_console_script(bg):
    found = bg.files(
        {
            "svc/__init__.py": "",
            "svc/main.py": """
                import threading

                def work():
                    outbox.commit()

                def main():
                    threading.Thread(target=work).start()
                """,
        },
        config=SCRIPTS,
        select=["BG404"],
    )
    assert codes(found) == [("BG404", 7)]
    assert found[0].message.startswith("Console script `svc` starts background work")


def test_bg404_module_level_asyncio_run(bg):
    found = bg.code(
        """
        import asyncio

        async def main():
            while True:
                await outbox.commit()
                await asyncio.sleep(1)

        asyncio.run(main())
        """,
        select=["BG404"],
    )
    assert codes(found) == [("BG404", 9)]
    assert found[0].message.startswith("This `asyncio.run()` entry point")


def test_bg404_asyncio_run_in_main_block(bg):
    found = bg.code(
        """
        import asyncio

        async def main():
            while True:
                await outbox.commit()
                await asyncio.sleep(1)

        if __name__ == "__main__":
            asyncio.run(main())
        """,
        select=["BG404"],
    )
    assert codes(found) == [("BG404", 9)]


def test_bg404_django_management_command(bg):
    found = bg.files(
        {
            "app/__init__.py": "",
            "app/management/__init__.py": "",
            "app/management/commands/__init__.py": "",
            "app/management/commands/relay.py": """
                import time
                from django.core.management.base import BaseCommand

                class Command(BaseCommand):
                    help = "relay the outbox"

                    def handle(self, *args, **options):
                        while True:
                            self.relay_once()
                            time.sleep(1)

                    def relay_once(self):
                        outbox.commit()
                """,
        },
        select=["BG404"],
    )
    assert codes(found) == [("BG404", 8)]
    assert found[0].message.startswith("This management command")


def test_bg404_sigint_handler_is_not_enough(bg):
    found = bg.code(
        """
        import signal
        import threading

        def work():
            outbox.commit()

        def stop(signum, frame):
            pass

        if __name__ == "__main__":
            signal.signal(signal.SIGINT, stop)
            threading.Thread(target=work).start()
        """,
        select=["BG404"],
    )
    assert codes(found) == [("BG404", 11)]


# ---------------------------------------------------------------------------
# BG404 no-sigterm-handler: must not flag


def test_bg404_handler_installed_in_the_module(bg):
    found = bg.code(
        """
        import signal
        import threading

        def work():
            outbox.commit()

        def stop(signum, frame):
            pass

        signal.signal(signal.SIGTERM, stop)

        if __name__ == "__main__":
            threading.Thread(target=work).start()
        """,
        select=["BG404"],
    )
    assert codes(found) == []


def test_bg404_handler_installed_in_a_function_the_entry_reaches(bg):
    found = bg.files(
        {
            "svc/__init__.py": "",
            "svc/signals.py": """
                import signal

                def install(stop):
                    signal.signal(signal.SIGTERM, stop)
                """,
            "svc/run.py": """
                import threading
                from svc.signals import install

                def work():
                    outbox.commit()

                if __name__ == "__main__":
                    install(lambda signum, frame: None)
                    threading.Thread(target=work).start()
                """,
        },
        select=["BG404"],
    )
    assert codes(found) == []


def test_bg404_handler_installed_for_a_loop_over_signals(bg):
    found = bg.code(
        """
        import signal
        import threading

        def work():
            outbox.commit()

        def stop(signum, frame):
            pass

        def install():
            for sig in (signal.SIGTERM, signal.SIGINT):
                signal.signal(sig, stop)

        if __name__ == "__main__":
            install()
            threading.Thread(target=work).start()
        """,
        select=["BG404"],
    )
    assert codes(found) == []


def test_bg404_handler_installed_through_from_imports(bg):
    found = bg.code(
        """
        import threading
        from signal import SIGTERM, signal

        def work():
            outbox.commit()

        def stop(signum, frame):
            pass

        if __name__ == "__main__":
            signal(SIGTERM, stop)
            threading.Thread(target=work).start()
        """,
        select=["BG404"],
    )
    assert codes(found) == []


def test_bg404_handler_installed_through_a_renamed_import(bg):
    found = bg.code(
        """
        import threading
        from signal import SIGTERM
        from signal import signal as on_signal

        def work():
            outbox.commit()

        def stop(signum, frame):
            pass

        if __name__ == "__main__":
            on_signal(SIGTERM, stop)
            threading.Thread(target=work).start()
        """,
        select=["BG404"],
    )
    assert codes(found) == []


def test_bg404_loop_add_signal_handler(bg):
    found = bg.code(
        """
        import asyncio
        import signal

        async def main():
            loop = asyncio.get_running_loop()
            stop = asyncio.Event()
            loop.add_signal_handler(signal.SIGTERM, stop.set)
            while True:
                await asyncio.sleep(1)

        asyncio.run(main())
        """,
        select=["BG404"],
    )
    assert codes(found) == []


def test_bg404_console_script_with_handler(bg):
    found = bg.files(
        {
            "svc/__init__.py": "",
            "svc/main.py": """
                import signal
                import threading

                def work():
                    outbox.commit()

                def stop(signum, frame):
                    pass

                def main():
                    signal.signal(signal.SIGTERM, stop)
                    threading.Thread(target=work).start()
                """,
        },
        config=SCRIPTS,
        select=["BG404"],
    )
    assert codes(found) == []


def test_bg404_hands_over_to_uvicorn(bg):
    found = bg.code(
        """
        import threading
        import uvicorn

        def work():
            outbox.commit()

        if __name__ == "__main__":
            threading.Thread(target=work, daemon=True).start()
            uvicorn.run("app:app", host="0.0.0.0")
        """,
        select=["BG404"],
    )
    assert codes(found) == []


def test_bg404_hands_over_to_celery_worker_main(bg):
    found = bg.code(
        """
        import threading
        from celery import Celery

        app = Celery("shop")

        def work():
            outbox.commit()

        if __name__ == "__main__":
            threading.Thread(target=work).start()
            app.worker_main(["worker", "--loglevel=info"])
        """,
        select=["BG404"],
    )
    assert codes(found) == []


def test_bg404_hands_over_to_arq_run_worker(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor
        from arq import run_worker

        class WorkerSettings:
            functions = []

        if __name__ == "__main__":
            ThreadPoolExecutor().submit(print)
            run_worker(WorkerSettings)
        """,
        select=["BG404"],
    )
    assert codes(found) == []


def test_bg404_monitor_that_writes_nothing_durable(bg):
    # A curses monitor, a stats screen, a dev watcher: killed at once, they lose nothing.
    found = bg.files(
        {
            "tools/__init__.py": "",
            "tools/top.py": """
                import threading
                import time

                class Display(threading.Thread):
                    def run(self):
                        while True:
                            print(stats())
                            time.sleep(1)

                def stats():
                    return {}

                def capture(receiver):
                    while True:
                        receiver.poll()

                if __name__ == "__main__":
                    Display().start()
                    capture(object())
                """,
        },
        select=["BG404"],
    )
    assert codes(found) == []


def test_bg404_monitor_that_also_commits_is_flagged(bg):
    # The same shape, with a thread target that records what it sees: work in flight.
    found = bg.code(
        """
        import threading

        def record(db):
            while True:
                db.session.commit()

        if __name__ == "__main__":
            threading.Thread(target=record, args=(None,)).start()
        """,
        select=["BG404"],
    )
    assert codes(found) == [("BG404", 8)]
    assert "which writes durably (`session.commit()`)" in found[0].explanation


def test_bg404_entry_points_without_background_work(bg):
    found = bg.files(
        {
            "svc/__init__.py": "",
            "svc/main.py": """
                import sys

                def main():
                    print("migrating")
                    return 0

                if __name__ == "__main__":
                    sys.exit(main())
                """,
            "svc/once.py": """
                import asyncio

                async def main():
                    await asyncio.sleep(1)

                asyncio.run(main())
                """,
        },
        config=SCRIPTS,
        select=["BG404"],
    )
    assert codes(found) == []


def test_bg404_background_work_outside_entry_points(bg):
    found = bg.code(
        """
        import threading

        def work():
            outbox.commit()

        def start():
            threading.Thread(target=work).start()
        """,
        select=["BG404"],
    )
    assert codes(found) == []


# ---------------------------------------------------------------------------
# BG405 unbounded-wait-in-shutdown: must flag


def test_bg405_signal_handler_shutdown_and_join(bg):
    found = bg.code(
        """
        import signal
        import threading
        from concurrent.futures import ThreadPoolExecutor

        EXECUTOR = ThreadPoolExecutor(max_workers=4)
        WORKER = threading.Thread(target=print)

        def on_term(signum, frame):
            EXECUTOR.shutdown(wait=True)
            WORKER.join()
            WORKER.join(None)

        signal.signal(signal.SIGTERM, on_term)
        """,
        select=["BG405"],
    )
    assert codes(found) == [("BG405", 10), ("BG405", 11), ("BG405", 12)]
    assert "in the signal handler `on_term()`" in found[0].message


def test_bg405_atexit_hook_scheduler_and_executor_shutdown(bg):
    found = bg.code(
        """
        import atexit
        from concurrent.futures import ThreadPoolExecutor
        from apscheduler.schedulers.background import BackgroundScheduler

        EXECUTOR = ThreadPoolExecutor(max_workers=4)
        SCHEDULER = BackgroundScheduler()

        @atexit.register
        def at_exit():
            SCHEDULER.shutdown()
            EXECUTOR.shutdown()

        def registered():
            EXECUTOR.shutdown(True)

        atexit.register(registered)
        """,
        select=["BG405"],
    )
    assert codes(found) == [("BG405", 11), ("BG405", 12), ("BG405", 15)]
    assert "atexit hook `at_exit()`" in found[0].message


def test_bg405_on_event_shutdown_gather(bg):
    found = bg.code(
        """
        import asyncio
        from fastapi import FastAPI

        app = FastAPI()
        TASKS = set()

        @app.on_event("shutdown")
        async def on_shutdown():
            await asyncio.gather(*TASKS)
            await asyncio.wait_for(asyncio.gather(*TASKS), None)
        """,
        select=["BG405"],
    )
    assert codes(found) == [("BG405", 10), ("BG405", 11)]
    assert "`asyncio.gather()` in the shutdown event handler" in found[0].message


def test_bg405_lifespan_after_yield(bg):
    found = bg.code(
        """
        import asyncio
        import threading
        from contextlib import asynccontextmanager
        from fastapi import FastAPI

        TASKS = set()
        WORKER = threading.Thread(target=print)

        @asynccontextmanager
        async def lifespan(app):
            WORKER.start()
            yield
            await asyncio.gather(*TASKS)
            WORKER.join()

        app = FastAPI(lifespan=lifespan)
        """,
        select=["BG405"],
    )
    assert codes(found) == [("BG405", 14), ("BG405", 15)]
    assert "in the lifespan `lifespan()`" in found[0].message


def test_bg405_celery_worker_shutdown(bg):
    found = bg.code(
        """
        import threading
        from celery.signals import worker_shutdown

        WORKER = threading.Thread(target=print)

        @worker_shutdown.connect
        def on_worker_shutdown(**kwargs):
            WORKER.join()
        """,
        select=["BG405"],
    )
    assert codes(found) == [("BG405", 9)]
    assert "Celery worker_shutdown handler" in found[0].message


def test_bg405_callee_of_a_signal_handler_in_another_module(bg):
    found = bg.files(
        {
            "svc/__init__.py": "",
            "svc/workers.py": """
                import threading

                WORKER = threading.Thread(target=print)

                def stop_workers():
                    WORKER.join()
                """,
            "svc/main.py": """
                import signal
                from svc.workers import stop_workers

                def on_term(signum, frame):
                    stop_workers()

                signal.signal(signal.SIGTERM, on_term)
                """,
        },
        select=["BG405"],
    )
    assert codes(found) == [("BG405", 7)]
    assert found[0].location.path == "svc/workers.py"


def test_bg405_function_called_by_lifespan_after_yield(bg):
    found = bg.files(
        {
            "svc/__init__.py": "",
            "svc/workers.py": """
                import threading

                WORKER = threading.Thread(target=print)

                def stop_workers():
                    WORKER.join()
                """,
            "svc/app.py": """
                from contextlib import asynccontextmanager
                from fastapi import FastAPI
                from svc.workers import stop_workers

                @asynccontextmanager
                async def lifespan(app):
                    yield
                    stop_workers()

                app = FastAPI(lifespan=lifespan)
                """,
        },
        select=["BG405"],
    )
    assert codes(found) == [("BG405", 7)]


# ---------------------------------------------------------------------------
# BG405 unbounded-wait-in-shutdown: must not flag


def test_bg405_waits_with_a_timeout(bg):
    found = bg.code(
        """
        import signal
        import threading
        from concurrent.futures import ThreadPoolExecutor

        EXECUTOR = ThreadPoolExecutor(max_workers=4)
        WORKER = threading.Thread(target=print)

        def on_term(signum, frame):
            WORKER.join(timeout=5)
            WORKER.join(5)
            EXECUTOR.shutdown(wait=False, cancel_futures=True)
            print(", ".join(["a", "b"]))

        signal.signal(signal.SIGTERM, on_term)
        """,
        select=["BG405"],
    )
    assert codes(found) == []


def test_bg405_gather_under_a_deadline(bg):
    found = bg.code(
        """
        import asyncio
        from fastapi import FastAPI

        app = FastAPI()
        TASKS = set()

        @app.on_event("shutdown")
        async def on_shutdown():
            await asyncio.wait_for(asyncio.gather(*TASKS), timeout=10)
            async with asyncio.timeout(10):
                await asyncio.gather(*TASKS)
        """,
        select=["BG405"],
    )
    assert codes(found) == []


def test_bg405_lifespan_code_before_yield(bg):
    found = bg.code(
        """
        import asyncio
        import threading
        from contextlib import asynccontextmanager
        from fastapi import FastAPI

        TASKS = set()
        WARMUP = threading.Thread(target=print)

        @asynccontextmanager
        async def lifespan(app):
            WARMUP.start()
            WARMUP.join()
            await asyncio.gather(*TASKS)
            yield

        app = FastAPI(lifespan=lifespan)
        """,
        select=["BG405"],
    )
    assert codes(found) == []


def test_bg405_same_waits_outside_shutdown_paths(bg):
    found = bg.code(
        """
        import asyncio
        import threading
        from concurrent.futures import ThreadPoolExecutor
        from apscheduler.schedulers.background import BackgroundScheduler

        EXECUTOR = ThreadPoolExecutor(max_workers=4)
        SCHEDULER = BackgroundScheduler()
        WORKER = threading.Thread(target=print)
        TASKS = set()

        def batch():
            EXECUTOR.shutdown(wait=True)
            WORKER.join()
            SCHEDULER.shutdown()

        async def run_all():
            await asyncio.gather(*TASKS)
        """,
        select=["BG405"],
    )
    assert codes(found) == []


# ---------------------------------------------------------------------------
# BG406 shutdown-budget-exceeded

_BUDGET_FILES = {
    "svc/__init__.py": "",
    "svc/workers.py": """
        import threading

        WORKER = threading.Thread(target=print)

        def stop_workers():
            WORKER.join(timeout=25)
        """,
    "svc/main.py": """
        import signal
        import time
        from svc.workers import stop_workers

        def on_term(signum, frame):
            stop_workers()
            time.sleep(20)

        signal.signal(signal.SIGTERM, on_term)
        """,
}


def test_bg406_waits_across_modules_exceed_grace_period(bg):
    found = bg.files(_BUDGET_FILES, config='grace-period = "30s"\n', select=["BG406"])
    assert codes(found) == [("BG406", 6)]
    assert found[0].location.path == "svc/main.py"
    assert found[0].message == "The waits on this shutdown path (signal handler) add up to 45 s, more than the 30 s grace period"
    message = found[0].explanation
    assert "sleep(20) in on_term() (svc/main.py:6)" in message
    assert "WORKER.join(25) in stop_workers() (svc/workers.py:6)" in message
    assert "= 45 s" in message


def test_bg406_waits_that_fit_the_budget(bg):
    found = bg.files(_BUDGET_FILES, config='grace-period = "60s"\n', select=["BG406"])
    assert codes(found) == []


def test_bg406_grace_period_not_configured(bg):
    found = bg.files(_BUDGET_FILES, config="replicas = 2\n", select=["BG406"])
    assert codes(found) == []


def test_bg406_lifespan_counts_only_waits_after_yield(bg):
    found = bg.code(
        """
        import asyncio
        from contextlib import asynccontextmanager
        from fastapi import FastAPI

        async def connect():
            pass

        @asynccontextmanager
        async def lifespan(app):
            await asyncio.wait_for(connect(), timeout=25)
            yield
            await asyncio.sleep(20)

        app = FastAPI(lifespan=lifespan)
        """,
        config='grace-period = "30s"\n',
        select=["BG406"],
    )
    assert codes(found) == []


def test_bg406_lifespan_waits_after_yield_exceed_grace_period(bg):
    found = bg.files(
        {
            "svc/__init__.py": "",
            "svc/workers.py": """
                import threading

                WORKER = threading.Thread(target=print)

                def stop_workers():
                    WORKER.join(timeout=25)

                def start_workers():
                    WORKER.join(timeout=40)
                """,
            "svc/app.py": """
                import asyncio
                from contextlib import asynccontextmanager
                from fastapi import FastAPI
                from svc.workers import start_workers, stop_workers

                @asynccontextmanager
                async def lifespan(app):
                    start_workers()
                    yield
                    stop_workers()
                    await asyncio.sleep(20)

                app = FastAPI(lifespan=lifespan)
                """,
        },
        config='grace-period = "30s"\n',
        select=["BG406"],
    )
    assert codes(found) == [("BG406", 8)]
    assert found[0].message == "The waits on this shutdown path (lifespan) add up to 45 s, more than the 30 s grace period"
    message = found[0].explanation
    assert "sleep(20) in lifespan()" in message
    assert "WORKER.join(25) in stop_workers()" in message
    assert "join(40)" not in message
