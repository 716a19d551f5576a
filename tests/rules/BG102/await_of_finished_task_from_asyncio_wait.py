# `done, pending = await asyncio.wait(...)`: awaiting a task of `done` does not suspend, so the
# handler only sees that task's outcome. Not flagged. Awaiting one of `pending` suspends, and a
# cancellation of this coroutine lands in the handler: flagged. (A name is known to hold a finished
# task only when every binding of it in the function gives one.)
import asyncio


async def collect(tasks):
    done, pending = await asyncio.wait(tasks, timeout=5)
    for task in done:
        try:
            await task
        except BaseException:  # finished task's outcome
            pass
    for waiting in pending:
        try:
            await waiting
        except BaseException:  # error: BG102
            pass


async def collect_rebound(tasks):
    done, pending = await asyncio.wait(tasks)
    for task in done:
        task = pending.pop()  # no longer a finished task
        try:
            await task
        except BaseException:  # error: BG102
            pass


async def awaits_something_else_too(tasks):
    done, _ = await asyncio.wait(tasks)
    for task in done:
        try:
            await task
            await asyncio.sleep(1)
        except BaseException:  # error: BG102
            pass
