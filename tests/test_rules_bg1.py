"""BG101-BG104: stop requests must propagate.

Each test is one shape the rule must flag, or one it must not flag (the
rule's page in ``rules/`` lists both: "Example" and "When it stays silent").
Sources start with a newline, so line 1 is empty and the first line of code
is line 2.
"""

from __future__ import annotations

from conftest import codes

# ---------------------------------------------------------------------------
# BG101 cancellation-swallowed: must flag


def test_bg101_except_cancelled_pass(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                pass
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_from_import_with_alias(bg):
    found = bg.code(
        """
        import asyncio
        from asyncio import CancelledError as Stop

        async def worker():
            try:
                await asyncio.sleep(1)
            except Stop:
                pass
        """
    )
    assert codes(found) == [("BG101", 8)]


def test_bg101_module_alias(bg):
    found = bg.code(
        """
        import asyncio as aio

        async def worker():
            try:
                await aio.sleep(1)
            except aio.CancelledError:
                pass
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_asyncio_exceptions_cancelled_error(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.exceptions.CancelledError:
                pass
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_concurrent_futures_cancelled_error(bg):
    found = bg.code(
        """
        import concurrent.futures

        def collect(future):
            try:
                return future.result()
            except concurrent.futures.CancelledError:
                return None
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_concurrent_futures_from_import(bg):
    found = bg.code(
        """
        from concurrent.futures import CancelledError

        def collect(future):
            try:
                return future.result()
            except CancelledError:
                return None
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_trio_cancelled(bg):
    found = bg.code(
        """
        import trio

        async def worker():
            try:
                await trio.sleep(1)
            except trio.Cancelled:
                pass
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_anyio_get_cancelled_exc_class_call(bg):
    found = bg.code(
        """
        import anyio

        async def worker():
            try:
                await anyio.sleep(1)
            except anyio.get_cancelled_exc_class():
                pass
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_anyio_cancelled_class_in_local_variable(bg):
    found = bg.code(
        """
        import anyio

        async def worker():
            cancelled = anyio.get_cancelled_exc_class()
            try:
                await anyio.sleep(1)
            except cancelled:
                pass
        """
    )
    assert codes(found) == [("BG101", 8)]


def test_bg101_anyio_from_import_factory(bg):
    found = bg.code(
        """
        from anyio import get_cancelled_exc_class, sleep

        async def worker():
            try:
                await sleep(1)
            except get_cancelled_exc_class():
                pass
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_reexport_from_project_module(bg):
    found = bg.files(
        {
            "pkg/__init__.py": "",
            "pkg/compat.py": "from asyncio import CancelledError as Stop\n",
            "pkg/work.py": """
                import asyncio
                from pkg.compat import Stop

                async def worker():
                    try:
                        await asyncio.sleep(1)
                    except Stop:
                        pass
                """,
        }
    )
    assert [(d.location.path, d.code, d.location.line) for d in found] == [("pkg/work.py", "BG101", 8)]


def test_bg101_relative_reexport_from_project_module(bg):
    found = bg.files(
        {
            "pkg/__init__.py": "",
            "pkg/compat.py": "import asyncio\nStop = asyncio.CancelledError\n",
            "pkg/work.py": """
                import asyncio
                from .compat import Stop

                async def worker():
                    try:
                        await asyncio.sleep(1)
                    except Stop:
                        pass
                """,
        }
    )
    assert [(d.location.path, d.code, d.location.line) for d in found] == [("pkg/work.py", "BG101", 8)]


def test_bg101_in_tuple_with_other_exceptions(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except (ValueError, asyncio.CancelledError, OSError):
                pass
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_except_star(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except* asyncio.CancelledError:
                pass
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_except_star_reraising_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except* asyncio.CancelledError:
                cleanup()
                raise
        """
    )
    assert codes(found) == []


def test_bg101_handler_returns(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                return "stopped"
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_handler_breaks(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            while True:
                try:
                    await asyncio.sleep(1)
                except asyncio.CancelledError:
                    break
        """
    )
    assert codes(found) == [("BG101", 8)]


def test_bg101_handler_continues(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            while True:
                try:
                    await asyncio.sleep(1)
                except asyncio.CancelledError:
                    continue
        """
    )
    assert codes(found) == [("BG101", 8)]


def test_bg101_handler_logs_then_falls_through(bg):
    found = bg.code(
        """
        import asyncio
        import logging

        log = logging.getLogger(__name__)

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError as exc:
                log.warning("cancelled: %s", exc)
            return 1
        """
    )
    assert codes(found) == [("BG101", 10)]


def test_bg101_handler_reraises_on_some_paths_only(bg):
    found = bg.code(
        """
        import asyncio

        async def worker(strict):
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                if strict:
                    raise
                else:
                    cleanup()
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_handler_reraises_in_if_without_else(bg):
    found = bg.code(
        """
        import asyncio

        async def worker(strict):
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                if strict:
                    raise
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_contextlib_suppress(bg):
    found = bg.code(
        """
        import asyncio
        import contextlib

        async def worker():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(1)
        """
    )
    assert codes(found) == [("BG101", 6)]


def test_bg101_suppress_imported_from_contextlib(bg):
    found = bg.code(
        """
        import asyncio
        from contextlib import suppress

        async def worker():
            with suppress(ValueError, asyncio.CancelledError):
                await asyncio.sleep(1)
        """
    )
    assert codes(found) == [("BG101", 6)]


def test_bg101_suppress_of_other_exceptions_is_fine(bg):
    found = bg.code(
        """
        import asyncio
        from contextlib import suppress

        async def worker():
            with suppress(ValueError):
                await asyncio.sleep(1)
        """
    )
    assert codes(found) == []


def test_bg101_keyboard_interrupt_in_coroutine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except KeyboardInterrupt:
                pass
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_system_exit_in_coroutine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except SystemExit:
                print("ignoring exit")
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_keyboard_interrupt_in_loop(bg):
    found = bg.code(
        """
        def serve(poll):
            while True:
                try:
                    poll()
                except KeyboardInterrupt:
                    print("press again to quit")
        """
    )
    assert codes(found) == [("BG101", 6)]


def test_bg101_system_exit_in_loop(bg):
    found = bg.code(
        """
        def serve(jobs):
            for job in jobs:
                try:
                    job()
                except SystemExit:
                    continue
        """
    )
    assert codes(found) == [("BG101", 6)]


def test_bg101_interrupted_error_swallowed(bg):
    found = bg.code(
        """
        import os

        def read_byte(fd):
            try:
                return os.read(fd, 1)
            except InterruptedError:
                return b""
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_interrupted_error_in_loop_that_logs_is_not_the_retry_shape(bg):
    found = bg.code(
        """
        import os

        def read_all(fd):
            chunks = []
            while True:
                try:
                    chunk = os.read(fd, 1024)
                except InterruptedError:
                    print("interrupted")
                    break
                chunks.append(chunk)
            return chunks
        """
    )
    assert codes(found) == [("BG101", 9)]


def test_bg101_in_celery_task(bg):
    found = bg.code(
        """
        from celery import shared_task

        @shared_task
        def sync():
            try:
                work()
            except SystemExit:
                pass
        """
    )
    assert codes(found) == [("BG101", 8)]


def test_bg101_nested_handler_in_coroutine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                try:
                    await asyncio.sleep(1)
                except asyncio.CancelledError:
                    pass
            except ValueError:
                raise
        """
    )
    assert codes(found) == [("BG101", 8)]


def test_bg101_except_star_in_tuple(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except* (ValueError, asyncio.CancelledError):
                return None
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_reexport_through_package_init(bg):
    found = bg.files(
        {
            "pkg/__init__.py": "from .compat import Stop\n",
            "pkg/compat.py": "from asyncio import CancelledError as Stop\n",
            "pkg/work.py": """
                import asyncio
                from pkg import Stop

                async def worker():
                    try:
                        await asyncio.sleep(1)
                    except Stop:
                        pass
                """,
        }
    )
    assert [(d.location.path, d.code, d.location.line) for d in found] == [("pkg/work.py", "BG101", 8)]


def test_bg101_keyboard_interrupt_in_top_level_loop_that_goes_on(bg):
    found = bg.code(
        """
        def main():
            pass

        if __name__ == "__main__":
            while True:
                try:
                    main()
                except KeyboardInterrupt:
                    continue
        """
    )
    assert codes(found) == [("BG101", 9)]


def test_bg101_suppress_keyboard_interrupt_in_loop(bg):
    found = bg.code(
        """
        from contextlib import suppress

        def serve(poll):
            while True:
                with suppress(KeyboardInterrupt):
                    poll()
        """
    )
    assert codes(found) == [("BG101", 6)]


def test_bg101_await_before_cancel_is_not_the_idiom(bg):
    # The cancel comes after the await: the CancelledError caught is someone else's.
    found = bg.code(
        """
        import asyncio

        async def run(task):
            try:
                await task
            except asyncio.CancelledError:
                pass
            task.cancel()
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_cancel_then_await_with_other_awaits_in_try_is_not_the_idiom(bg):
    # A cancellation of this coroutine during the sleep is swallowed too.
    found = bg.code(
        """
        import asyncio

        async def stop(task):
            task.cancel()
            try:
                await asyncio.sleep(5)
                await task
            except asyncio.CancelledError:
                pass
        """
    )
    assert codes(found) == [("BG101", 9)]


def test_bg101_cancel_then_wait_for_the_cancelled_task_is_the_idiom(bg):
    # wait_for(t), shield(t), gather(t) and wait([t]) end when t ends, as `await t` does: the
    # CancelledError is the cancelled task's outcome.
    found = bg.code(
        """
        import asyncio

        async def stop(task, other):
            task.cancel()
            try:
                await asyncio.wait_for(task, timeout=5)
            except asyncio.CancelledError:
                pass
            other.cancel()
            try:
                await asyncio.gather(other, return_exceptions=False)
            except asyncio.CancelledError:
                pass
        """
    )
    assert codes(found) == []


def test_bg101_cancel_then_wait_for_of_a_call_is_not_the_idiom(bg):
    found = bg.code(
        """
        import asyncio

        async def stop(task, client):
            task.cancel()
            try:
                await asyncio.wait_for(client.close(), timeout=5)
            except asyncio.CancelledError:
                pass
        """
    )
    assert codes(found) == [("BG101", 8)]


# ---------------------------------------------------------------------------
# BG101: must not flag


def test_bg101_bare_raise_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                cleanup()
                raise
        """
    )
    assert codes(found) == []


def test_bg101_raise_bound_exception_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError as exc:
                cleanup()
                raise exc
        """
    )
    assert codes(found) == []


def test_bg101_raise_other_exception_from_is_flagged(bg):
    # issues 12 (item 5) and 17: the stop turned into an ordinary exception is caught by an
    # ``except Exception`` further up, and the stop is lost.
    found = bg.code(
        """
        import asyncio

        class Stopped(Exception):
            pass

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError as exc:
                raise Stopped("worker stopped") from exc
        """
    )
    assert codes(found) == [("BG101", 10)]
    assert "turns the stop into another exception" in found[0].message


def test_bg101_if_else_both_raise_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker(strict):
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                if strict:
                    raise
                else:
                    cleanup()
                    raise
        """
    )
    assert codes(found) == []


def test_bg101_if_elif_else_all_raise_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker(mode):
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                if mode == 1:
                    raise
                elif mode == 2:
                    cleanup()
                    raise
                else:
                    log("stopped")
                    raise
        """
    )
    assert codes(found) == []


def test_bg101_raise_in_nested_finally_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                try:
                    await cleanup()
                finally:
                    raise
        """
    )
    assert codes(found) == []


def test_bg101_raise_after_nested_try_that_handles_cleanup_errors_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                try:
                    await cleanup()
                except Exception:
                    pass
                raise
        """
    )
    assert codes(found) == []


def test_bg101_cancel_then_await(bg):
    found = bg.code(
        """
        import asyncio

        async def stop(task):
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
        """
    )
    assert codes(found) == []


def test_bg101_cancel_then_await_attribute(bg):
    found = bg.code(
        """
        import asyncio

        class Service:
            async def stop(self):
                self.task.cancel()
                try:
                    await self.task
                except asyncio.CancelledError:
                    pass
        """
    )
    assert codes(found) == []


def test_bg101_cancel_then_await_with_suppress(bg):
    found = bg.code(
        """
        import asyncio
        import contextlib

        async def stop(task):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        """
    )
    assert codes(found) == []


def test_bg101_cancel_of_another_task_is_not_the_idiom(bg):
    found = bg.code(
        """
        import asyncio

        async def stop(task, other):
            task.cancel()
            try:
                await other
            except asyncio.CancelledError:
                pass
        """
    )
    assert codes(found) == [("BG101", 8)]


def test_bg101_cancel_in_another_function_is_not_the_idiom(bg):
    found = bg.code(
        """
        import asyncio

        def request_stop(task):
            task.cancel()

        async def wait_for_it(task):
            try:
                await task
            except asyncio.CancelledError:
                pass
        """
    )
    assert codes(found) == [("BG101", 10)]


def test_bg101_cancel_inside_try_then_await(bg):
    found = bg.code(
        """
        import asyncio

        async def stop(task):
            try:
                task.cancel()
                await task
            except asyncio.CancelledError:
                pass
        """
    )
    assert codes(found) == []


def test_bg101_keyboard_interrupt_around_main_at_module_level(bg):
    found = bg.code(
        """
        import sys

        def main():
            run_forever()

        if __name__ == "__main__":
            try:
                main()
            except KeyboardInterrupt:
                print("bye")
        """
    )
    assert codes(found) == []


def test_bg101_keyboard_interrupt_in_sync_main(bg):
    found = bg.code(
        """
        import asyncio

        async def serve():
            await asyncio.sleep(3600)

        def main():
            try:
                asyncio.run(serve())
            except KeyboardInterrupt:
                print("interrupted, exiting")

        if __name__ == "__main__":
            main()
        """
    )
    assert codes(found) == []


def test_bg101_keyboard_interrupt_breaking_out_of_top_level_loop(bg):
    # A restart-on-crash loop around main(): on Ctrl-C the loop, and the program, end.
    found = bg.code(
        """
        def main():
            pass

        if __name__ == "__main__":
            while True:
                try:
                    main()
                except KeyboardInterrupt:
                    break
        """
    )
    assert codes(found) == []


def test_bg101_keyboard_interrupt_returning_from_sync_loop(bg):
    found = bg.code(
        """
        def main(poll):
            while True:
                try:
                    poll()
                except KeyboardInterrupt:
                    return 130
        """
    )
    assert codes(found) == []


def test_bg101_handler_calls_sys_exit(bg):
    found = bg.code(
        """
        import asyncio
        import sys

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                print("stopping")
                sys.exit(1)
        """
    )
    assert codes(found) == []


def test_bg101_unrelated_cancelled_class_from_library(bg):
    found = bg.code(
        """
        import asyncio
        from mylib.errors import Cancelled

        async def worker():
            try:
                await asyncio.sleep(1)
            except Cancelled:
                pass
        """
    )
    assert codes(found) == []


def test_bg101_unrelated_cancelled_error_from_library(bg):
    found = bg.code(
        """
        import asyncio
        from mylib.errors import CancelledError

        async def worker():
            try:
                await asyncio.sleep(1)
            except CancelledError:
                pass
        """
    )
    assert codes(found) == []


def test_bg101_locally_defined_cancelled_error(bg):
    found = bg.code(
        """
        import asyncio

        class CancelledError(Exception):
            pass

        async def worker():
            try:
                await asyncio.sleep(1)
            except CancelledError:
                pass
        """
    )
    assert codes(found) == []


def test_bg101_eintr_retry_loop(bg):
    found = bg.code(
        """
        import os

        def read_byte(fd):
            while True:
                try:
                    return os.read(fd, 1)
                except InterruptedError:
                    continue
        """
    )
    assert codes(found) == []


def test_bg101_catching_other_exceptions_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except (ValueError, asyncio.TimeoutError):
                pass
        """
    )
    assert codes(found) == []


# ---------------------------------------------------------------------------
# BG101: noqa and messages


def test_bg101_noqa_with_its_code_suppresses(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:  # noqa: BG101
                pass
        """
    )
    assert codes(found) == []


def test_bg101_noqa_with_another_code_does_not_suppress(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:  # noqa: E501
                pass
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg101_message_names_the_exception(bg):
    found = bg.code(
        """
        import asyncio as aio

        async def worker():
            try:
                await aio.sleep(1)
            except aio.CancelledError:
                pass
        """
    )
    [diagnostic] = found
    assert diagnostic.code == "BG101"
    assert diagnostic.name == "cancellation-swallowed"
    assert "`except asyncio.CancelledError`" in diagnostic.message


def test_bg101_message_names_each_exception_of_a_tuple(bg):
    found = bg.code(
        """
        import asyncio
        import trio

        async def worker():
            try:
                await asyncio.sleep(1)
            except (asyncio.CancelledError, trio.Cancelled):
                pass
        """
    )
    [diagnostic] = found
    assert "asyncio.CancelledError" in diagnostic.message
    assert "trio.Cancelled" in diagnostic.message


def test_bg101_message_for_suppress_names_the_exception(bg):
    found = bg.code(
        """
        import asyncio
        from contextlib import suppress

        async def worker():
            with suppress(asyncio.CancelledError):
                await asyncio.sleep(1)
        """
    )
    [diagnostic] = found
    assert "contextlib.suppress(asyncio.CancelledError)" in diagnostic.message


def test_bg101_message_for_system_exit(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except SystemExit:
                pass
        """
    )
    [diagnostic] = found
    assert "`except SystemExit`" in diagnostic.message
    assert "coroutine" in diagnostic.message


def test_bg101_message_for_except_star(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except* asyncio.CancelledError:
                pass
        """
    )
    [diagnostic] = found
    assert "`except* asyncio.CancelledError`" in diagnostic.message


def test_bg101_message_names_a_doubly_caught_exception_once(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except (asyncio.CancelledError, asyncio.exceptions.CancelledError):
                pass
        """
    )
    [diagnostic] = found
    assert "`except asyncio.CancelledError`" in diagnostic.message


def test_bg101_location_spans_the_except_clause(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except asyncio.CancelledError:
                pass
        """
    )
    [diagnostic] = found
    location = diagnostic.location
    assert (location.line, location.column) == (7, 5)
    assert (location.end_line, location.end_column) == (7, 34)


# ---------------------------------------------------------------------------
# BG102 broad-except-swallows-cancellation


def test_bg102_bare_except_in_coroutine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except:
                pass
        """
    )
    assert codes(found) == [("BG102", 7)]


def test_bg102_except_base_exception_in_coroutine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except BaseException as exc:
                print(exc)
        """
    )
    assert codes(found) == [("BG102", 7)]


def test_bg102_base_exception_in_tuple(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except (ValueError, BaseException):
                return None
        """
    )
    assert codes(found) == [("BG102", 7)]


def test_bg102_bare_except_in_app_task(bg):
    found = bg.code(
        """
        from celery import Celery

        app = Celery()

        @app.task
        def sync():
            try:
                work()
            except:
                pass
        """
    )
    assert codes(found) == [("BG102", 10)]


def test_bg102_base_exception_in_app_task_with_options(bg):
    found = bg.code(
        """
        from celery import Celery

        app = Celery("proj")

        @app.task(bind=True)
        def sync(self):
            try:
                work()
            except BaseException:
                self.log("failed")
        """
    )
    assert codes(found) == [("BG102", 10)]


def test_bg102_bare_except_in_shared_task(bg):
    found = bg.code(
        """
        from celery import shared_task

        @shared_task
        def sync():
            try:
                work()
            except:
                pass
        """
    )
    assert codes(found) == [("BG102", 8)]


def test_bg102_function_called_by_task_in_another_module(bg):
    found = bg.files(
        {
            "proj/__init__.py": "",
            "proj/helpers.py": """
                def fetch_all():
                    try:
                        download()
                    except:
                        pass

                def unrelated():
                    try:
                        download()
                    except:
                        pass
                """,
            "proj/tasks.py": """
                from celery import shared_task

                from proj.helpers import fetch_all

                @shared_task
                def refresh():
                    fetch_all()
                """,
        }
    )
    assert [(d.location.path, d.code, d.location.line) for d in found] == [("proj/helpers.py", "BG102", 5)]


def test_bg102_function_called_through_module_import(bg):
    found = bg.files(
        {
            "proj/__init__.py": "",
            "proj/helpers.py": """
                def fetch_all():
                    try:
                        download()
                    except BaseException:
                        pass
                """,
            "proj/tasks.py": """
                from celery import shared_task

                from proj import helpers

                @shared_task
                def refresh():
                    helpers.fetch_all()
                """,
        }
    )
    assert [(d.location.path, d.code, d.location.line) for d in found] == [("proj/helpers.py", "BG102", 5)]


def test_bg102_except_star_base_exception_in_coroutine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except* BaseException:
                pass
        """
    )
    assert codes(found) == [("BG102", 7)]


def test_bg102_base_exception_in_task_class_run(bg):
    found = bg.code(
        """
        from celery import Task

        class Sync(Task):
            def run(self):
                try:
                    work()
                except BaseException:
                    pass
        """
    )
    assert codes(found) == [("BG102", 8)]


def test_bg102_except_exception_in_coroutine_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except Exception:
                pass
        """
    )
    assert codes(found) == []


def test_bg102_reraising_handler_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except:
                cleanup()
                raise
        """
    )
    assert codes(found) == []


def test_bg102_base_exception_reraised_as_other_is_flagged(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except BaseException as exc:
                raise RuntimeError("worker failed") from exc
        """
    )
    assert codes(found) == [("BG102", 7)]


def test_bg102_bare_except_in_plain_sync_function_is_fine(bg):
    found = bg.code(
        """
        def parse(text):
            try:
                return int(text)
            except:
                return None
        """
    )
    assert codes(found) == []


def test_bg102_leaves_named_cancellation_to_bg101(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except (BaseException, asyncio.CancelledError):
                pass
        """
    )
    assert codes(found) == [("BG101", 7)]


def test_bg102_message_mentions_cancelled_error_in_coroutine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except:
                pass
        """
    )
    [diagnostic] = found
    assert diagnostic.name == "broad-except-swallows-cancellation"
    assert "`except:`" in diagnostic.message
    assert "asyncio.CancelledError" in diagnostic.explanation


# ---------------------------------------------------------------------------
# BG103 finally-swallows-cancellation


def test_bg103_return_in_finally_in_coroutine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            finally:
                return None
        """
    )
    assert codes(found) == [("BG103", 8)]


def test_bg103_break_in_finally_in_coroutine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            while True:
                try:
                    await asyncio.sleep(1)
                finally:
                    break
        """
    )
    assert codes(found) == [("BG103", 9)]


def test_bg103_continue_in_finally_in_coroutine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker(items):
            for item in items:
                try:
                    await process(item)
                finally:
                    continue
        """
    )
    assert codes(found) == [("BG103", 9)]


def test_bg103_return_under_if_in_finally(bg):
    found = bg.code(
        """
        import asyncio

        async def worker(flag):
            try:
                await asyncio.sleep(1)
            finally:
                if flag:
                    return 1
        """
    )
    assert codes(found) == [("BG103", 9)]


def test_bg103_async_with_counts_as_await(bg):
    found = bg.code(
        """
        async def worker(lock):
            try:
                async with lock:
                    pass
            finally:
                return None
        """
    )
    assert codes(found) == [("BG103", 7)]


def test_bg103_return_in_finally_in_celery_task(bg):
    found = bg.code(
        """
        from celery import Celery

        app = Celery()

        @app.task
        def sync():
            try:
                work()
            finally:
                return "done"
        """
    )
    assert codes(found) == [("BG103", 11)]


def test_bg103_break_in_finally_in_shared_task(bg):
    found = bg.code(
        """
        from celery import shared_task

        @shared_task
        def sync(items):
            for item in items:
                try:
                    work(item)
                finally:
                    break
        """
    )
    assert codes(found) == [("BG103", 10)]


def test_bg103_return_in_finally_in_function_called_by_task(bg):
    found = bg.files(
        {
            "proj/__init__.py": "",
            "proj/helpers.py": """
                def fetch_all():
                    try:
                        download()
                    finally:
                        return None
                """,
            "proj/tasks.py": """
                from celery import shared_task

                from proj.helpers import fetch_all

                @shared_task
                def refresh():
                    fetch_all()
                """,
        }
    )
    assert [(d.location.path, d.code, d.location.line) for d in found] == [("proj/helpers.py", "BG103", 6)]


def test_bg103_return_in_nested_finally_reported_once(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            finally:
                try:
                    await asyncio.sleep(1)
                finally:
                    return None
        """
    )
    assert codes(found) == [("BG103", 11)]


def test_bg103_try_star_finally(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except* ValueError:
                pass
            finally:
                return None
        """
    )
    assert codes(found) == [("BG103", 10)]


def test_bg103_return_in_finally_in_sync_function_is_fine(bg):
    found = bg.code(
        """
        def parse(text):
            try:
                value = int(text)
            finally:
                return 0
        """
    )
    assert codes(found) == []


def test_bg103_break_in_loop_nested_in_finally_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker(items):
            try:
                await asyncio.sleep(1)
            finally:
                for item in items:
                    if item:
                        break
                while True:
                    continue
        """
    )
    assert codes(found) == []


def test_bg103_return_in_nested_def_in_finally_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker(callbacks):
            try:
                await asyncio.sleep(1)
            finally:
                def done():
                    return True
                callbacks.append(done)
                callbacks.append(lambda: None)
        """
    )
    assert codes(found) == []


def test_bg103_coroutine_without_await_in_try_is_fine(bg):
    # Design choice: no await in the try body, so no CancelledError can be in flight there.
    found = bg.code(
        """
        import asyncio

        async def worker(data):
            await asyncio.sleep(0)
            try:
                value = parse(data)
            finally:
                return None
        """
    )
    assert codes(found) == []


def test_bg103_try_without_finally_is_fine(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            except ValueError:
                return None
        """
    )
    assert codes(found) == []


def test_bg103_message_names_the_keyword(bg):
    found = bg.code(
        """
        import asyncio

        async def worker():
            try:
                await asyncio.sleep(1)
            finally:
                return None
        """
    )
    [diagnostic] = found
    assert diagnostic.name == "finally-swallows-cancellation"
    assert "`return` inside `finally:`" in diagnostic.message


# ---------------------------------------------------------------------------
# BG104 soft-time-limit-swallowed


def test_bg104_task_option_and_except_exception(bg):
    found = bg.code(
        """
        import logging
        from celery import Celery

        app = Celery()
        log = logging.getLogger(__name__)

        @app.task(soft_time_limit=30)
        def sync():
            try:
                work()
            except Exception:
                log.exception("sync failed")
        """
    )
    assert codes(found) == [("BG104", 12)]


def test_bg104_app_conf_attribute(bg):
    found = bg.code(
        """
        from celery import Celery

        app = Celery()
        app.conf.task_soft_time_limit = 30

        @app.task
        def sync():
            try:
                work()
            except Exception:
                print("failed")
        """
    )
    assert codes(found) == [("BG104", 11)]


def test_bg104_app_conf_update(bg):
    found = bg.code(
        """
        from celery import Celery

        app = Celery()
        app.conf.update(task_soft_time_limit=30)

        @app.task
        def sync():
            try:
                work()
            except Exception:
                print("failed")
        """
    )
    assert codes(found) == [("BG104", 11)]


def test_bg104_app_conf_update_with_dict(bg):
    found = bg.code(
        """
        from celery import Celery

        app = Celery()
        app.conf.update({"task_soft_time_limit": 30})

        @app.task
        def sync():
            try:
                work()
            except Exception:
                print("failed")
        """
    )
    assert codes(found) == [("BG104", 11)]


DJANGO_PROJECT = {
    "proj/__init__.py": "",
    "proj/settings.py": """
        INSTALLED_APPS = ["shop"]
        CELERY_TASK_SOFT_TIME_LIMIT = 60
        """,
    "proj/celery.py": """
        import os

        from celery import Celery

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "proj.settings")
        app = Celery("proj")
        app.config_from_object("django.conf:settings", namespace="CELERY")
        app.autodiscover_tasks()
        """,
    "shop/__init__.py": "",
}


def test_bg104_django_settings_with_app_task(bg):
    found = bg.files(
        {
            **DJANGO_PROJECT,
            "shop/tasks.py": """
                from proj.celery import app

                @app.task
                def sync_orders():
                    try:
                        work()
                    except Exception:
                        print("failed")
                """,
        }
    )
    assert [(d.location.path, d.code, d.location.line) for d in found] == [("shop/tasks.py", "BG104", 8)]


def test_bg104_django_settings_with_shared_task(bg):
    found = bg.files(
        {
            **DJANGO_PROJECT,
            "shop/tasks.py": """
                from celery import shared_task

                @shared_task
                def sync_orders():
                    try:
                        work()
                    except Exception:
                        print("failed")
                """,
        }
    )
    assert [(d.location.path, d.code, d.location.line) for d in found] == [("shop/tasks.py", "BG104", 8)]


def test_bg104_limit_from_constant_in_another_module(bg):
    found = bg.files(
        {
            "proj/__init__.py": "",
            "proj/limits.py": "SOFT = 5 * 60\n",
            "proj/tasks.py": """
                from celery import shared_task

                from proj.limits import SOFT

                @shared_task(soft_time_limit=SOFT)
                def sync_orders():
                    try:
                        work()
                    except Exception:
                        print("failed")
                """,
        }
    )
    assert [(d.location.path, d.code, d.location.line) for d in found] == [("proj/tasks.py", "BG104", 10)]


def test_bg104_except_soft_time_limit_exceeded_with_cleanup(bg):
    found = bg.code(
        """
        from celery import shared_task
        from celery.exceptions import SoftTimeLimitExceeded

        @shared_task(soft_time_limit=30)
        def sync():
            try:
                work()
            except SoftTimeLimitExceeded:
                cleanup()
        """
    )
    assert codes(found) == [("BG104", 9)]


def test_bg104_soft_time_limit_exceeded_in_tuple(bg):
    found = bg.code(
        """
        from celery import shared_task
        from celery.exceptions import SoftTimeLimitExceeded

        @shared_task(soft_time_limit=30)
        def sync():
            try:
                work()
            except (ValueError, SoftTimeLimitExceeded):
                return None
        """
    )
    assert codes(found) == [("BG104", 9)]


def test_bg104_except_star_exception(bg):
    found = bg.code(
        """
        from celery import shared_task

        @shared_task(soft_time_limit=30)
        def sync():
            try:
                work()
            except* Exception:
                pass
        """
    )
    assert codes(found) == [("BG104", 8)]


def test_bg104_task_class_with_soft_time_limit_attribute(bg):
    found = bg.code(
        """
        from celery import Task

        class Sync(Task):
            soft_time_limit = 30

            def run(self):
                try:
                    work()
                except Exception:
                    pass
        """
    )
    assert codes(found) == [("BG104", 10)]


def test_bg104_setting_read_from_environment(bg):
    # The value does not fold, but the project does set a soft limit.
    found = bg.files(
        {
            "proj/__init__.py": "",
            "proj/worker.py": """
                import os

                from celery import Celery

                app = Celery()
                app.conf.task_soft_time_limit = int(os.environ["SOFT_LIMIT"])

                @app.task
                def sync():
                    try:
                        work()
                    except Exception:
                        pass
                """,
        }
    )
    assert codes(found) == [("BG104", 13)]


def test_bg104_task_option_of_none_falls_back_to_app_setting(bg):
    found = bg.code(
        """
        from celery import Celery

        app = Celery()
        app.conf.task_soft_time_limit = 30

        @app.task(soft_time_limit=None)
        def sync():
            try:
                work()
            except Exception:
                pass
        """
    )
    assert codes(found) == [("BG104", 11)]


def test_bg104_reraising_handler_is_fine(bg):
    found = bg.code(
        """
        from celery import shared_task

        @shared_task(soft_time_limit=30)
        def sync():
            try:
                work()
            except Exception:
                cleanup()
                raise
        """
    )
    assert codes(found) == []


def test_bg104_soft_time_limit_exceeded_reraised_is_fine(bg):
    found = bg.code(
        """
        from celery import shared_task
        from celery.exceptions import SoftTimeLimitExceeded

        @shared_task(soft_time_limit=30)
        def sync():
            try:
                work()
            except SoftTimeLimitExceeded:
                cleanup()
                raise
        """
    )
    assert codes(found) == []


def test_bg104_task_without_soft_limit_is_fine(bg):
    found = bg.code(
        """
        from celery import shared_task

        @shared_task(time_limit=60)
        def sync():
            try:
                work()
            except Exception:
                print("failed")
        """
    )
    assert codes(found) == []


def test_bg104_earlier_handler_takes_the_soft_limit(bg):
    found = bg.code(
        """
        from celery import shared_task
        from celery.exceptions import SoftTimeLimitExceeded

        @shared_task(soft_time_limit=30)
        def sync():
            try:
                work()
            except SoftTimeLimitExceeded:
                raise
            except Exception:
                print("failed")
        """
    )
    assert codes(found) == []


def test_bg104_function_that_is_not_a_task_is_fine(bg):
    found = bg.code(
        """
        from celery import Celery

        app = Celery()
        app.conf.task_soft_time_limit = 30

        def helper():
            try:
                work()
            except Exception:
                print("failed")
        """
    )
    assert codes(found) == []


def test_bg104_app_setting_of_none_is_no_limit(bg):
    found = bg.code(
        """
        from celery import Celery

        app = Celery()
        app.conf.task_soft_time_limit = None

        @app.task
        def sync():
            try:
                work()
            except Exception:
                pass
        """
    )
    assert codes(found) == []


def test_bg104_except_other_exception_is_fine(bg):
    found = bg.code(
        """
        from celery import shared_task

        @shared_task(soft_time_limit=30)
        def sync():
            try:
                work()
            except ValueError:
                print("bad value")
        """
    )
    assert codes(found) == []


def test_bg104_message_names_task_and_option(bg):
    found = bg.code(
        """
        from celery import Celery

        app = Celery()

        @app.task(soft_time_limit=30, name="shop.sync")
        def sync():
            try:
                work()
            except Exception:
                print("failed")
        """
    )
    [diagnostic] = found
    assert diagnostic.code == "BG104"
    assert diagnostic.name == "soft-time-limit-swallowed"
    assert "`shop.sync`" in diagnostic.explanation
    assert "30 s" in diagnostic.message
    assert "task option soft_time_limit" in diagnostic.explanation


def test_bg104_message_names_the_function_when_task_has_no_name(bg):
    found = bg.code(
        """
        from celery import shared_task

        @shared_task(soft_time_limit=30)
        def sync():
            try:
                work()
            except Exception:
                print("failed")
        """,
        name="tasks.py",
    )
    [diagnostic] = found
    assert "`tasks.sync`" in diagnostic.explanation


def test_bg104_message_names_the_config_source(bg):
    found = bg.files(
        {
            **DJANGO_PROJECT,
            "shop/tasks.py": """
                from celery import shared_task

                @shared_task
                def sync_orders():
                    try:
                        work()
                    except Exception:
                        print("failed")
                """,
        }
    )
    [diagnostic] = found
    assert "`shop.tasks.sync_orders`" in diagnostic.explanation
    assert "60 s" in diagnostic.message
    assert "proj/settings.py: CELERY_TASK_SOFT_TIME_LIMIT" in diagnostic.explanation


def test_bg104_message_names_app_conf_update(bg):
    found = bg.code(
        """
        from celery import Celery

        app = Celery()
        app.conf.update(task_soft_time_limit=30)

        @app.task
        def sync():
            try:
                work()
            except Exception:
                print("failed")
        """,
        name="worker.py",
    )
    [diagnostic] = found
    assert "`worker.sync`" in diagnostic.explanation
    assert "worker.py: app.conf.update(task_soft_time_limit=...)" in diagnostic.explanation


def test_bg104_message_for_a_limit_that_does_not_fold(bg):
    found = bg.code(
        """
        from celery import shared_task
        from django.conf import settings

        @shared_task(soft_time_limit=settings.SYNC_SOFT_LIMIT)
        def sync():
            try:
                work()
            except Exception:
                pass
        """,
        name="tasks.py",
    )
    assert codes(found) == [("BG104", 9)]
    [diagnostic] = found
    assert "value not known statically" in diagnostic.message
    assert "task option soft_time_limit" in diagnostic.explanation
