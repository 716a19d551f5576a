"""BG101-BG103: what the execution model knows about stops (issues 11, 12 and 17).

The stop turned into another exception, ``yield`` in a handler, loops that always raise,
unreachable clauses, where a stop can arrive (suspension points, worker threads), and whose
cancellation a caught CancelledError is. Each shape in both directions.
"""

from __future__ import annotations

import pytest

from conftest import codes

# ---------------------------------------------------------------------------
# The stop turned into another exception


def test_base_exception_turned_into_value_error_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def poll(feed):
            try:
                await feed.next()
            except BaseException:
                raise ValueError("feed broke")
        """
    )
    assert codes(found, "BG1") == [("BG102", 7)]
    assert found[0].message == "`except BaseException` turns the cancellation into another exception"


def test_cancelled_caught_with_client_errors_and_converted_is_flagged(bg):
    # issue 12 item 5
    found = bg.code(
        """
        import asyncio
        import aiohttp

        class UpstreamError(Exception):
            pass

        async def fetch(session, url):
            try:
                return await session.get(url)
            except (asyncio.CancelledError, aiohttp.ClientError) as err:
                raise UpstreamError(f"fetching {url} failed: {err}") from err
        """
    )
    assert codes(found, "BG1") == [("BG105", 11)]


def test_cancelled_caught_with_client_errors_logged_and_returned_is_flagged(bg):
    found = bg.code(
        """
        import asyncio
        import logging
        import aiohttp

        async def fetch(session, url):
            try:
                return await session.get(url)
            except (asyncio.CancelledError, aiohttp.ClientError) as err:
                logging.warning("fetching %s failed: %s", url, err)
                return None
        """
    )
    assert codes(found, "BG1") == [("BG105", 9)]


def test_cancelled_reraised_as_a_cancellation_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def step(job):
            try:
                await job.run()
            except asyncio.CancelledError as exc:
                raise asyncio.CancelledError("stopped while running job") from exc
        """
    )
    assert codes(found, "BG1") == []


def test_raise_of_an_unknown_factory_result_stays_silent(bg):
    # what ``wrap()`` returns is not known: the model cannot tell, so the rule stays silent
    found = bg.code(
        """
        import asyncio
        from errors import wrap

        async def step(job):
            try:
                await job.run()
            except BaseException as exc:
                raise wrap(exc)
        """
    )
    assert codes(found, "BG1") == []


def test_nested_ordinary_exception_raised_in_handler_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def step(job):
            try:
                await job.run()
            except BaseException as exc:
                try:
                    job.cleanup()
                except OSError as cleanup_error:
                    raise cleanup_error
                raise exc
        """
    )
    assert codes(found, "BG1") == [("BG102", 7)]


def test_nested_handlers_that_all_reraise_the_stop_are_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def step(job):
            try:
                await job.run()
            except BaseException as exc:
                try:
                    job.cleanup()
                except OSError:
                    raise exc
                except BaseException as other:
                    raise other
                raise exc
        """
    )
    assert codes(found, "BG1") == []


def test_outer_ordinary_exception_reraised_from_inner_broad_handler_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def step(job):
            try:
                job.prepare()
            except ValueError as error:
                try:
                    await job.report(error)
                except BaseException:
                    raise error
        """
    )
    assert codes(found, "BG1") == [("BG102", 10)]


def test_except_star_conversion_is_flagged_and_reraise_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def a(group):
            try:
                await group.run()
            except* BaseException:
                raise ValueError("group failed")

        async def b(group):
            try:
                await group.run()
            except* BaseException:
                raise
        """
    )
    assert codes(found, "BG1") == [("BG102", 7)]


def test_trio_cancelled_converted_is_flagged(bg):
    found = bg.code(
        """
        import trio

        async def step(job):
            try:
                await job.run()
            except trio.Cancelled as e:
                raise ValueError() from e
        """
    )
    assert codes(found, "BG1") == [("BG105", 7)]


# ---------------------------------------------------------------------------
# yield inside the handler


def test_yield_inside_handler_before_reraise_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def rows(cursor):
            try:
                async for row in cursor:
                    yield row
            except asyncio.CancelledError:
                yield None
                raise
        """
    )
    assert codes(found, "BG1") == [("BG105", 8)]
    assert "`yield` inside" in found[0].message


def test_yield_after_the_handler_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def rows(cursor):
            try:
                async for row in cursor:
                    yield row
            except BaseException:
                await cursor.close()
                raise
            yield None
        """
    )
    assert codes(found, "BG1") == []


# ---------------------------------------------------------------------------
# Loops that always raise, loops with else


def test_while_else_raise_is_fine_and_with_break_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def a(conn):
            try:
                await conn.send()
            except BaseException:
                while conn.pending():
                    conn.drop()
                else:
                    raise

        async def b(conn):
            try:
                await conn.send()
            except BaseException:
                while conn.pending():
                    if conn.closed:
                        break
                    conn.drop()
                else:
                    raise
        """
    )
    assert codes(found, "BG1") == [("BG102", 16)]


def test_for_else_raise_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def a(conn, hooks):
            try:
                await conn.send()
            except BaseException:
                for hook in hooks:
                    hook()
                else:
                    raise
        """
    )
    assert codes(found, "BG1") == []


def test_for_over_non_empty_literal_that_raises_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def a(conn):
            try:
                await conn.send()
            except BaseException:
                for attempt in range(3):
                    raise

        async def b(conn):
            try:
                await conn.send()
            except BaseException:
                for name in ("a", "b"):
                    raise
        """
    )
    assert codes(found, "BG1") == []


def test_for_over_unknown_or_empty_iterable_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def a(conn, items):
            try:
                await conn.send()
            except BaseException:
                for item in items:
                    raise

        async def b(conn):
            try:
                await conn.send()
            except BaseException:
                for item in []:
                    raise

        async def c(conn):
            try:
                await conn.send()
            except BaseException:
                for item in [1, 2]:
                    if item:
                        continue
                    raise
        """
    )
    assert codes(found, "BG1") == [("BG102", 7), ("BG102", 14), ("BG102", 21)]


# ---------------------------------------------------------------------------
# Unreachable clauses, and a cancellation taken by an earlier clause


def test_bare_except_after_base_exception_is_unreachable(bg):
    found = bg.code(
        """
        import asyncio

        async def a(conn):
            try:
                await conn.send()
            except BaseException:
                raise
            except:
                pass

        async def b(conn):
            try:
                await conn.send()
            except BaseException:
                pass
            except:
                pass
        """
    )
    assert codes(found, "BG1") == [("BG102", 15)]


def test_bare_except_after_a_cancellation_clause_is_not_reported_again(bg):
    found = bg.code(
        """
        import trio

        async def a(conn):
            try:
                await conn.send()
            except trio.Cancelled:
                pass
            except:
                pass
        """
    )
    assert codes(found, "BG1") == [("BG105", 7)]


def test_bare_except_after_an_ordinary_clause_is_still_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def a(conn):
            try:
                await conn.send()
            except OSError:
                raise
            except:
                pass
        """
    )
    assert codes(found, "BG1") == [("BG102", 9)]


# ---------------------------------------------------------------------------
# Cause 1: no way for the stop to arrive


def test_broad_except_without_suspension_point_in_coroutine_is_fine(bg):
    found = bg.code(
        """
        import asyncio
        import json

        async def handle(raw, queue):
            try:
                message = json.loads(raw)
            except BaseException:
                message = None
            try:
                value = int(raw)
            except asyncio.CancelledError:
                value = 0
            await queue.put((message, value))
        """
    )
    assert codes(found, "BG1") == []


def test_broad_except_with_suspension_point_in_coroutine_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def handle(conn):
            try:
                async with conn.lock():
                    conn.flush()
            except:
                pass
            try:
                async for chunk in conn:
                    conn.feed(chunk)
            except asyncio.CancelledError:
                pass
        """
    )
    assert codes(found, "BG1") == [("BG102", 8), ("BG105", 13)]


def test_keyboard_interrupt_in_a_coroutine_without_await_is_still_flagged(bg):
    # KeyboardInterrupt reaches the main thread at any bytecode, await or not
    found = bg.code(
        """
        async def crunch(numbers):
            total = 0
            for n in numbers:
                try:
                    total += n * n
                except KeyboardInterrupt:
                    continue
            return total
        """
    )
    assert codes(found, "BG1") == [("BG105", 7)]


def test_thread_target_never_receives_keyboard_interrupt(bg):
    found = bg.code(
        """
        import threading

        def pump(queue, sink):
            while True:
                try:
                    sink.write(queue.get())
                except KeyboardInterrupt:
                    continue
                except:
                    sink.reset()

        def start(queue, sink):
            threading.Thread(target=pump, args=(queue, sink), daemon=True).start()
        """
    )
    assert codes(found, "BG1") == []


def test_executor_submitted_function_never_receives_keyboard_interrupt(bg):
    found = bg.code(
        """
        from concurrent.futures import ThreadPoolExecutor

        pool = ThreadPoolExecutor(4)

        def resize(path):
            try:
                return convert(path)
            except BaseException:
                return None

        def convert(path):
            try:
                return open(path).read()
            except SystemExit:
                return None

        def submit_all(paths):
            return [pool.submit(resize, p) for p in paths]
        """
    )
    assert codes(found, "BG1") == []


@pytest.mark.parametrize(
    "imports, decorator, expected",
    [
        # a Dramatiq actor receives TimeLimitExceeded and Shutdown: still flagged
        ("import dramatiq", "@dramatiq.actor", [("BG102", 8)]),
        # a Celery worker's warm shutdown raises nothing in a running task, and a thread gets no
        # signal: no job of this function receives a stop as an exception
        ("from celery import shared_task", "@shared_task", []),
    ],
)
def test_function_run_by_a_thread_and_by_a_queued_job(bg, imports, decorator, expected):
    found = bg.code(
        f"""
        import threading
        {imports}

        def sync_accounts():
            try:
                push()
            except:
                pass

        def start():
            threading.Thread(target=sync_accounts).start()

        {decorator}
        def nightly():
            sync_accounts()
        """
    )
    assert codes(found, "BG1") == expected


def test_signal_handler_is_not_a_worker_thread(bg):
    found = bg.code(
        """
        import signal
        import threading

        def drain():
            while True:
                try:
                    step()
                except KeyboardInterrupt:
                    continue

        threading.Thread(target=drain).start()
        signal.signal(signal.SIGTERM, drain)
        """
    )
    assert codes(found, "BG1") == [("BG105", 9)]


# ---------------------------------------------------------------------------
# Cause 7: cancel-then-await across methods


def test_cancel_in_stop_then_await_in_another_method_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        class Poller:
            def __init__(self):
                self._task = None

            def start(self):
                self._task = asyncio.create_task(self._run())

            def stop(self):
                self._task.cancel()

            async def wait_stopped(self):
                try:
                    await self._task
                except asyncio.CancelledError:
                    pass

            async def _run(self):
                while True:
                    await asyncio.sleep(1)
        """
    )
    assert codes(found, "BG1") == []


def test_await_of_an_attribute_nobody_cancels_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        class Poller:
            def start(self):
                self._task = asyncio.create_task(self._run())

            async def wait_stopped(self):
                try:
                    await self._task
                except asyncio.CancelledError:
                    pass

            async def _run(self):
                await asyncio.sleep(1)
        """
    )
    assert codes(found, "BG1") == [("BG105", 11)]


def test_cancelled_attribute_awaited_with_other_awaits_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        class Poller:
            def stop(self):
                self._task.cancel()

            async def wait_stopped(self):
                try:
                    await self._task
                    await asyncio.sleep(1)
                except asyncio.CancelledError:
                    pass
        """
    )
    assert codes(found, "BG1") == [("BG105", 12)]


# ---------------------------------------------------------------------------
# Cause 8: synchronous callers are not tasks


def test_cancelled_around_run_until_complete_in_plain_function_is_fine(bg):
    found = bg.code(
        """
        import asyncio
        import threading

        def run_loop(loop, main):
            try:
                loop.run_until_complete(main())
            except asyncio.CancelledError:
                pass
            finally:
                loop.close()

        def start(loop, main):
            threading.Thread(target=run_loop, args=(loop, main)).start()
        """
    )
    assert codes(found, "BG1") == []


def test_cancelled_around_run_until_complete_in_a_coroutine_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def supervise(loop, main):
            try:
                await asyncio.sleep(0)
                loop.run_until_complete(main())
            except asyncio.CancelledError:
                pass
        """
    )
    assert codes(found, "BG1") == [("BG105", 8)]


def test_concurrent_futures_cancelled_around_result_in_job_code_is_still_flagged(bg):
    found = bg.code(
        """
        import concurrent.futures
        from celery import shared_task

        @shared_task
        def collect(future):
            try:
                return future.result()
            except concurrent.futures.CancelledError:
                return None
        """
    )
    assert codes(found, "BG1") == [("BG105", 9)]


# ---------------------------------------------------------------------------
# The debatable case: swallowing in the outermost frame of a task stays reported


REFRESH_TASK = """
    import asyncio
    import logging

    async def refresh(cache):
        try:
            await cache.reload()
        except asyncio.CancelledError:
            logging.info("refresh cancelled")
            return

    def schedule(cache):
        return asyncio.create_task(refresh(cache))
    """


def test_log_and_return_in_the_outermost_frame_of_a_task_is_silent(bg):
    # The task stops when asked (as a success) and nothing of the project's goes on from it:
    # on real projects these were the owner's designed stop protocol, not lost stops.
    assert codes(bg.code(REFRESH_TASK), "BG1") == []


def test_log_and_return_in_the_outermost_frame_of_a_task_is_silent_in_preview_too(bg):
    assert codes(bg.code(REFRESH_TASK, config="preview = true\n"), "BG1") == []


def test_task_whose_loop_goes_on_after_the_handler_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def consume(queue, handle):
            while True:
                try:
                    await handle(await queue.get())
                except asyncio.CancelledError:
                    continue

        def start(queue, handle):
            return asyncio.create_task(consume(queue, handle))
        """
    )
    assert codes(found, "BG1") == [("BG101", 8)]


def test_task_that_breaks_out_of_its_loop_is_silent(bg):
    found = bg.code(
        """
        import asyncio

        async def heartbeat(client):
            while True:
                try:
                    await client.ping()
                    await asyncio.sleep(5)
                except asyncio.CancelledError:
                    break
            await client.close()

        def start(client):
            return asyncio.create_task(heartbeat(client))
        """
    )
    assert codes(found, "BG1") == []


def test_coroutine_awaited_by_project_code_is_flagged_even_if_it_returns(bg):
    # The caller awaits it and carries on: the stop is lost there.
    found = bg.code(
        """
        import asyncio

        async def fetch(client):
            try:
                return await client.get()
            except asyncio.CancelledError:
                return None

        async def poll(client, sink):
            while True:
                sink(await fetch(client))

        def start(client, sink):
            return asyncio.create_task(poll(client, sink))
        """
    )
    assert codes(found, "BG1") == [("BG105", 7)]


def test_coroutine_both_started_as_task_and_awaited_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def refresh(cache):
            try:
                await cache.reload()
            except asyncio.CancelledError:
                return

        async def warm(cache):
            await refresh(cache)
            await cache.mark_warm()

        def schedule(cache):
            return asyncio.create_task(refresh(cache))
        """
    )
    assert codes(found, "BG1") == [("BG105", 7)]


def test_coroutine_with_no_known_caller_is_flagged(bg):
    # A library's public coroutine: its callers are not in the project, so nobody can tell.
    found = bg.code(
        """
        import asyncio

        async def dequeue(queue):
            try:
                return await queue.get()
            except asyncio.CancelledError:
                return None
        """
    )
    assert codes(found, "BG1") == [("BG105", 7)]


def test_root_of_asyncio_run_that_ends_is_silent(bg):
    found = bg.code(
        """
        import asyncio

        async def serve(server):
            try:
                await server.serve_forever()
            except asyncio.CancelledError:
                pass
            finally:
                await server.wait_closed()

        def main(server):
            asyncio.run(serve(server))
        """
    )
    assert codes(found, "BG1") == []


def test_method_task_root_that_ends_is_silent_for_bare_except_too(bg):
    found = bg.code(
        """
        import asyncio
        import logging

        class Connection:
            def start(self, app):
                self.task = asyncio.get_running_loop().create_task(self.run_app(app))

            async def run_app(self, app):
                try:
                    await app()
                except BaseException:
                    logging.exception("app failed")
                    self.close()

            def close(self):
                pass
        """
    )
    assert codes(found, "BG1") == []


def test_method_awaited_by_another_method_is_flagged_for_bare_except(bg):
    found = bg.code(
        """
        import asyncio
        import logging

        class Connection:
            async def handle(self, app):
                while True:
                    await self.run_app(app)

            async def run_app(self, app):
                try:
                    await app()
                except BaseException:
                    logging.exception("app failed")
        """
    )
    assert codes(found, "BG1") == [("BG102", 13)]


def test_suppress_cancelled_without_suspension_point_is_fine_and_with_one_is_flagged(bg):
    found = bg.code(
        """
        import asyncio
        import contextlib

        async def a(cache):
            with contextlib.suppress(asyncio.CancelledError):
                cache.clear()
            with contextlib.suppress(asyncio.CancelledError):
                await cache.reload()
        """
    )
    assert codes(found, "BG1") == [("BG105", 8)]


def test_timeout_turning_its_cancellation_into_timeout_error_is_fine(bg):
    # the idiom of asyncio.timeout() and async_timeout: the cancellation was the timeout's own
    found = bg.code(
        """
        import asyncio

        class Deadline:
            async def run(self, work):
                try:
                    return await work
                except asyncio.CancelledError:
                    if self.expired:
                        raise asyncio.TimeoutError() from None
                    raise
        """
    )
    assert codes(found, "BG1") == []


def test_cancellation_turned_into_runtime_error_under_a_condition_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        class Deadline:
            async def run(self, work):
                try:
                    return await work
                except asyncio.CancelledError:
                    if self.expired:
                        raise RuntimeError("expired") from None
                    raise
        """
    )
    assert codes(found, "BG1") == [("BG105", 8)]


# ---------------------------------------------------------------------------
# The execution model itself: thread context of each function


def test_execution_model_thread_context(tmp_path, monkeypatch):
    from pathlib import Path

    from bgcheck.model import execution
    from bgcheck.load.config import load_config
    from bgcheck.model.build import build_index
    from bgcheck.run.engine import load_units
    from conftest import write_project

    write_project(
        tmp_path,
        {
            "app.py": """
            import asyncio
            import signal
            import threading
            from concurrent.futures import ThreadPoolExecutor

            pool = ThreadPoolExecutor(2)

            def helper():
                pass

            def pump():
                helper()

            def shared():
                pass

            def resize(path):
                shared()

            def on_term(signum, frame):
                pass

            async def serve():
                await asyncio.sleep(1)

            def main():
                threading.Thread(target=pump).start()
                pool.submit(resize, "x")
                signal.signal(signal.SIGTERM, on_term)
                shared()
            """
        },
    )
    monkeypatch.chdir(tmp_path)
    config = load_config(start=tmp_path)
    units = load_units([Path(".")], config, jobs=1)
    index = build_index([u.summary for u in units if u.summary is not None], config)
    model = index.execution
    assert model.context("app.serve") == execution.COROUTINE
    assert model.context("app.pump") == execution.WORKER_THREAD
    assert model.context("app.helper") == execution.WORKER_THREAD  # called only from a thread target
    assert model.context("app.resize") == execution.WORKER_THREAD
    assert model.context("app.shared") == execution.MAIN  # also called from main()
    assert model.context("app.on_term") == execution.SIGNAL_HANDLER
    assert model.context("app.main") == execution.MAIN


def test_second_cancel_swallowed_during_cleanup_in_finally_is_silent(bg):
    # shield-until-cleanup: the exception in flight carries on once the cleanup is done
    found = bg.code(
        """
        import asyncio
        import contextlib

        async def watch(stream, scheduler):
            try:
                while True:
                    await stream.next()
            finally:
                closing = asyncio.create_task(scheduler.close())
                while not closing.done():
                    with contextlib.suppress(asyncio.CancelledError):
                        await asyncio.shield(closing)
                try:
                    await scheduler.wait_closed()
                except asyncio.CancelledError:
                    pass
        """
    )
    assert codes(found, "BG1") == []


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        ("raise", []),  # the handler re-raises: the exception in flight goes on after the cleanup
        ("", [("BG105", 10)]),  # the handler carries on: the swallowed cancel is lost
    ],
    ids=["reraising-handler", "handler-that-carries-on"],
)
def test_cancel_swallowed_inside_another_handler(bg, after, expected):
    tail = "        raise" if after else "    await scheduler.run()"
    source = f"""
import asyncio

async def start(scheduler):
    try:
        await scheduler.start()
    except Exception:
        try:
            await scheduler.rollback()
        except asyncio.CancelledError:
            pass
{tail}
"""
    assert codes(bg.code(source), "BG1") == expected


def test_root_of_run_until_complete_that_ends_is_silent(bg):
    found = bg.code(
        """
        import asyncio

        class Worker:
            def run(self):
                loop = asyncio.new_event_loop()
                loop.run_until_complete(self._serve())

            async def _serve(self):
                try:
                    await self.server.serve_forever()
                except asyncio.CancelledError:
                    pass
                await self.server.wait_closed()
        """
    )
    assert codes(found, "BG1") == []


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        ("with asyncio.Runner() as runner:\n        runner.run(serve(server))", []),
        ("asyncio.Runner(debug=True).run(serve(server))", []),
        ("asyncio.run(serve(server))", []),
        # a project class's run() is not asyncio's: what it does with the coroutine is not known
        ("with Runner() as runner:\n        runner.run(serve(server))", [("BG105", 7)]),
    ],
    ids=["runner-with", "runner-chained", "asyncio-run", "project-runner"],
)
def test_root_of_an_asyncio_runner_that_ends_is_silent(bg, start, expected):
    """``asyncio.Runner().run(f())`` (Python 3.11) runs its coroutine as the loop's root, as
    ``asyncio.run(f())`` does: nothing goes on from its result. A ``Runner`` of the project's own
    with a ``run()`` method is no such root."""
    source = f"""
import asyncio

async def serve(server):
    try:
        await server.serve_forever()
    except asyncio.CancelledError:
        pass
    await server.wait_closed()

class Runner:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def run(self, coro):
        return coro

def main(server):
    {start}
"""
    assert codes(bg.code(source), "BG1") == expected


def test_task_started_with_the_coro_keyword_that_ends_is_silent(bg):
    found = bg.code(
        """
        import asyncio

        async def refresh(cache):
            try:
                await cache.reload()
            except asyncio.CancelledError:
                return

        def schedule(cache):
            return asyncio.create_task(coro=refresh(cache), name="refresh")
        """
    )
    assert codes(found, "BG1") == []


# ---------------------------------------------------------------------------
# Tasks started through the project's own helpers: a plain function that starts the coroutine it
# is given (``def start(coro): return loop.create_task(coro)``), also through another such helper.

ROUTINE = """
    import asyncio

    async def routine(client):
        while True:
            try:
                await client.fetch()
            except asyncio.CancelledError:
                return
    """


def test_task_started_through_project_helpers_across_modules_that_ends_is_silent(bg):
    found = bg.files(
        {
            "pkg/__init__.py": "",
            "pkg/util.py": """
                from asyncio import get_running_loop

                def create_task(coro):
                    loop = get_running_loop()
                    return loop.create_task(coro)
                """,
            "pkg/fetcher.py": ROUTINE
            + """
    class Fetcher:
        def __init__(self, client):
            from pkg.util import create_task
            self._task = create_task(self._run(client))

        async def _run(self, client):
            try:
                await client.connect()
            except asyncio.CancelledError:
                return

    def start(client):
        from pkg.util import create_task

        def start_pending(coro, node_id):
            task = create_task(coro)
            task.add_done_callback(print)

        start_pending(routine(client), node_id=1)
    """,
        }
    )
    assert codes(found, "BG1") == []


def test_method_helper_that_starts_its_argument_keyword_too(bg):
    found = bg.code(
        ROUTINE
        + """
    class Service:
        def _spawn(self, coro, *, name=None):
            return asyncio.ensure_future(coro)

        def start(self, client):
            self._spawn(coro=routine(client), name="routine")
    """
    )
    assert codes(found, "BG1") == []


def test_coroutine_given_to_a_helper_that_awaits_it_is_flagged(bg):
    # An async helper may await what it starts and go on from its result: not a task of its own.
    found = bg.code(
        ROUTINE
        + """
    async def run_guarded(coro):
        task = asyncio.create_task(coro)
        result = await task
        print("went on", result)

    async def main(client):
        await run_guarded(routine(client))
    """
    )
    assert codes(found, "BG1") == [("BG105", 8)]


def test_coroutine_given_to_a_helper_that_does_not_start_it_is_flagged(bg):
    found = bg.code(
        ROUTINE
        + """
    def remember(coro):
        PENDING.append(coro)

    PENDING = []

    def start(client):
        remember(routine(client))
    """
    )
    assert codes(found, "BG1") == [("BG105", 8)]


def test_helper_parameter_bound_again_is_not_the_coroutine_given(bg):
    found = bg.code(
        ROUTINE
        + """
    def start_other(coro):
        coro = asyncio.sleep(1)
        return asyncio.create_task(coro)

    def start(client):
        start_other(routine(client))
    """
    )
    assert codes(found, "BG1") == [("BG105", 8)]


def test_coroutine_started_through_a_helper_and_awaited_elsewhere_is_flagged(bg):
    found = bg.code(
        ROUTINE
        + """
    def spawn(coro):
        return asyncio.create_task(coro)

    def start(client):
        spawn(routine(client))

    async def once(client):
        await routine(client)
        print("goes on")
    """
    )
    assert codes(found, "BG1") == [("BG105", 8)]


# ---------------------------------------------------------------------------
# A service loop that a thread runs, and the program's main thread too: ``except SystemExit``
# around the loop ends the service (a thread never receives it; on the main thread it is the
# program's top). In a job that is not a thread, it keeps the worker going.

SERVICE = """
    import threading

    class Service:
        def __init__(self):
            self.stopped = threading.Event()

        def start(self):
            try:
                while not self.stopped.is_set():
                    self.tick()
            except (KeyboardInterrupt, SystemExit):
                self.stopped.set()
            finally:
                self.sync()

        def tick(self): ...

        def sync(self): ...

    class Embedded(threading.Thread):
        def __init__(self):
            super().__init__()
            self.service = Service()

        def run(self):
            self.service.start()

    def main():
        Service().start()
    """


def test_interrupt_ending_a_service_loop_run_by_a_thread_is_silent(bg):
    assert codes(bg.code(SERVICE), "BG") == []


def test_interrupt_swallowed_inside_the_loop_of_thread_run_code_is_flagged(bg):
    source = SERVICE.replace(
        """            try:
                while not self.stopped.is_set():
                    self.tick()
            except (KeyboardInterrupt, SystemExit):
                self.stopped.set()
            finally:
                self.sync()""",
        """            while not self.stopped.is_set():
                try:
                    self.tick()
                except (KeyboardInterrupt, SystemExit):
                    continue""",
    )
    assert source != SERVICE
    assert codes(bg.code(source), "BG") == [("BG105", 12)]


def test_interrupt_ending_a_loop_in_a_dramatiq_actor_is_flagged(bg):
    found = bg.code(
        """
        import dramatiq

        @dramatiq.actor
        def drain(queue):
            try:
                while True:
                    queue.handle_one()
            except SystemExit:
                queue.note_stopped()
        """
    )
    assert codes(found, "BG1") == [("BG105", 9)]


# ---------------------------------------------------------------------------
# A coroutine whose return ends every run it is part of: a route only its framework runs, and
# what such a route ends on (``await Handler(ws).start()`` as its last statement)

_ROUTE = """
import asyncio

from fastapi import APIRouter

router = APIRouter()


class Handler:
    def __init__(self, ws):
        self.ws = ws

    async def start(self):
        try:
            await self.ws.accept()
        except asyncio.CancelledError:
            await self.ws.close()
            return
        await self.ws.send_text("ready")


@router.websocket("/ws")
async def endpoint(ws):
    {caller}
"""


@pytest.mark.parametrize(
    ("caller", "expected"),
    [
        ("await Handler(ws).start()", []),  # the route ends on it: the stop ends the connection
        ("return await Handler(ws).start()", []),
        ("if ws:\n        await Handler(ws).start()", []),
        ("await Handler(ws).start()\n    await ws.send_text('bye')", [("BG105", 16)]),  # the route goes on
        ("await asyncio.wait_for(Handler(ws).start(), 5)", [("BG105", 16)]),  # wait_for's deadline is lost
    ],
)
def test_handler_a_route_ends_on(bg, caller, expected):
    assert codes(bg.code(_ROUTE.format(caller=caller)), "BG1") == expected


def test_handler_also_awaited_where_the_caller_goes_on_is_flagged(bg):
    found = bg.code(
        _ROUTE.format(caller="await Handler(ws).start()")
        + "\n\nasync def greet(ws):\n    await Handler(ws).start()\n    await ws.send_text('hello')\n"
    )
    assert codes(found, "BG1") == [("BG105", 16)]


def test_route_that_returns_on_its_cancellation_is_silent(bg):
    found = bg.code(
        """
        import asyncio

        from aiohttp import web

        routes = web.RouteTableDef()


        @routes.get("/events")
        async def events(request):
            response = web.StreamResponse()
            try:
                await response.prepare(request)
                await request.app["hub"].stream(response)
            except asyncio.CancelledError:
                pass
            return response
        """
    )
    # the handler falls through to ``return response``, which is not the try statement's end
    assert codes(found, "BG1") == [("BG105", 15)]
    found = bg.code(
        """
        import asyncio

        from aiohttp import web

        routes = web.RouteTableDef()


        @routes.get("/events")
        async def events(request):
            response = web.StreamResponse()
            try:
                await response.prepare(request)
                await request.app["hub"].stream(response)
            except asyncio.CancelledError:
                return response
            return response
        """
    )
    assert codes(found, "BG1") == []


def test_handler_falling_to_the_end_of_a_route_through_blocks_is_silent(bg):
    found = bg.code(
        """
        import asyncio

        from starlette.routing import WebSocketRoute


        async def relay(ws):
            async with ws.app.state.upstream() as upstream:
                try:
                    await asyncio.gather(upstream.pump(ws), upstream.drain(ws))
                except asyncio.CancelledError:
                    pass
                finally:
                    await upstream.close()


        ROUTES = [WebSocketRoute("/relay", relay)]
        """
    )
    assert codes(found, "BG1") == []


def test_coroutine_handed_to_a_project_helper_is_still_flagged(bg):
    # ``retry`` awaits it in a loop: a swallowed stop goes round again
    found = bg.code(
        """
        import asyncio


        async def retry(step):
            while True:
                try:
                    await step()
                    return
                except OSError:
                    await asyncio.sleep(1)


        async def fetch():
            try:
                await asyncio.sleep(5)
            except asyncio.CancelledError:
                return


        async def main():
            await retry(fetch)
        """
    )
    assert codes(found, "BG1") == [("BG105", 17)]


# A coroutine run only as cleanup: called in an ``except`` handler that always re-raises


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        ("raise", []),  # the exception in flight goes on once the cleanup is done
        ("return None", [("BG105", 9)]),  # the handler keeps the stop: the helper's loop is not cleanup
    ],
)
def test_shield_until_stopped_helper_called_in_a_reraising_handler(bg, after, expected):
    found = bg.code(
        f"""
        import asyncio


        async def stop_child(task):
            while not task.done():
                try:
                    await asyncio.shield(task)
                except asyncio.CancelledError:
                    continue


        async def run(proc, task):
            try:
                await proc.communicate()
            except BaseException:
                await stop_child(task)
                {after}
        """
    )
    assert codes(found, "BG105") == expected


# ---------------------------------------------------------------------------
# Main-thread job code where the project's signal handlers raise nothing

TORNADO_SERVICE = """
    import datetime
    import os
    import signal
    import sys

    from tornado.ioloop import IOLoop


    def remove_old_media(path):
        try:
            os.remove(path)
        except:
            pass
        IOLoop.current().add_timeout(datetime.timedelta(hours=1), remove_old_media, path)


    def main():
        def bye_handler(signum, frame):
            IOLoop.current().stop()

        signal.signal(signal.SIGINT, {sigint})
        signal.signal(signal.SIGTERM, {sigterm})
        IOLoop.current().add_timeout(datetime.timedelta(seconds=5), remove_old_media, "/tmp/x")
        IOLoop.current().start()


    def leave(signum, frame):
        sys.exit(0)
"""


@pytest.mark.parametrize(
    ("sigint", "sigterm", "expected"),
    [
        # both handlers only stop the loop: nothing is raised into the callback
        ("bye_handler", "bye_handler", []),
        ("signal.SIG_IGN", "bye_handler", []),
        # Ctrl-C keeps Python's handler, which raises KeyboardInterrupt
        ("signal.default_int_handler", "bye_handler", [("BG102", 13)]),
        # the SIGTERM handler exits: SystemExit is raised into whatever runs
        ("bye_handler", "leave", [("BG102", 13)]),
        # a handler bgcheck cannot see into may raise anything
        ("lambda s, f: None", "bye_handler", [("BG102", 13)]),
    ],
)
def test_an_event_loop_callback_gets_a_stop_only_from_the_signal_handlers(bg, sigint, sigterm, expected):
    found = bg.code(TORNADO_SERVICE.format(sigint=sigint, sigterm=sigterm))
    assert codes(found, "BG102") == expected


def test_an_event_loop_callback_with_pythons_own_sigint_handler_is_checked(bg):
    source = TORNADO_SERVICE.format(sigint="bye_handler", sigterm="bye_handler")
    source = source.replace("        signal.signal(signal.SIGINT, bye_handler)\n", "")
    found = bg.code(source)
    assert codes(found, "BG102") == [("BG102", 13)]


# A future asyncio.wait_for has just timed out on is cancelled and done (wait_for waits for the
# cancellation it makes before raising): awaiting it in the ``except TimeoutError`` handler hands
# back its CancelledError at once, and no stop of the running task can arrive there.
_TIMED_OUT = """
    import asyncio


    async def drain(children):
        while True:
            remaining = asyncio.gather(*children, return_exceptions=True)
            try:
                await asyncio.wait_for(remaining, 5)
            except {timeout}:
                try:
                    await {awaited}
                except asyncio.CancelledError:
                    pass
            await asyncio.sleep(1)
    """


@pytest.mark.parametrize("timeout", ["asyncio.TimeoutError", "TimeoutError", "(asyncio.TimeoutError, OSError)"])
def test_awaiting_the_future_wait_for_timed_out_on_is_silent(bg, timeout):
    assert codes(bg.code(_TIMED_OUT.format(timeout=timeout, awaited="remaining")), "BG1") == []


@pytest.mark.parametrize(
    ("timeout", "awaited", "code"),
    [
        ("asyncio.TimeoutError", "asyncio.sleep(0)", "BG101"),  # another wait: the task's own stop can arrive
        # not the timeout's handler: remaining may be pending, and a gather of tasks others hold
        # may raise their cancellation, not the running task's (BG105's to judge)
        ("OSError", "remaining", "BG105"),
    ],
)
def test_other_awaits_in_the_timeout_handler_are_flagged(bg, timeout, awaited, code):
    assert codes(bg.code(_TIMED_OUT.format(timeout=timeout, awaited=awaited)), "BG1") == [(code, 13)]


def test_the_timed_out_name_bound_again_in_the_handler_is_flagged(bg):
    source = _TIMED_OUT.format(timeout="asyncio.TimeoutError", awaited="remaining").replace(
        "                try:\n                    await remaining", "                remaining = asyncio.ensure_future(asyncio.sleep(9))\n                try:\n                    await remaining"
    )
    # the name is bound to the gather of the caller's tasks too: whose cancellation it raises is BG105's question
    assert codes(bg.code(source), "BG1") == [("BG105", 14)]


def test_a_cached_run_follows_a_cancelling_helper_edited_in_another_module(tmp_path, monkeypatch):
    """The helper's fact (it returns the running task's cancelling() test) reaches the handler in
    another module through the cache as in a cold run: edited to ask something else, the finding
    comes back; edited back, it goes."""
    from conftest import reported_at, write_project

    write_project(tmp_path, {
        "pyproject.toml": "[tool.bgcheck]\npreview = true\n",
        "relay/__init__.py": "",
        "relay/cancellation.py": """
            import asyncio


            def task_is_cancelling() -> bool:
                task = asyncio.current_task()
                return task is not None and task.cancelling() > 0
        """,
        "relay/worker.py": """
            import asyncio

            from relay.cancellation import task_is_cancelling


            async def consume(bus):
                while True:
                    try:
                        await bus.next()
                    except asyncio.CancelledError:
                        if task_is_cancelling():
                            raise
        """,
    })
    monkeypatch.chdir(tmp_path)
    helper = tmp_path / "relay" / "cancellation.py"

    assert reported_at("BG101") == reported_at("BG101", "--no-cache") == []
    helper.write_text(helper.read_text().replace("task.cancelling() > 0", "task.cancelled()"))
    assert reported_at("BG101") == reported_at("BG101", "--no-cache") == ["relay/worker.py:11:9"]
    helper.write_text(helper.read_text().replace("task.cancelled()", "task.cancelling() > 0"))
    assert reported_at("BG101") == reported_at("BG101", "--no-cache") == []
