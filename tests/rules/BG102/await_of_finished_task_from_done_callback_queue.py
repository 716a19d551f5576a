# A cleaner task awaits tasks that their own done-callback put on a queue: each is finished, so
# `await task` hands back its outcome without suspending, and `except BaseException` sees only
# that task's outcome, never a cancellation of the cleaner. Not flagged.
# The same shape, with a queue that also receives tasks still running, is flagged.
import asyncio


class Reaper:
    def __init__(self) -> None:
        self._finished: asyncio.Queue = asyncio.Queue()
        self._cleaner = asyncio.create_task(self._clean())

    def spawn(self, coro) -> None:
        task = asyncio.create_task(coro)
        task.add_done_callback(self._on_done)

    def _on_done(self, task: asyncio.Task) -> None:
        self._finished.put_nowait(task)

    async def _clean(self) -> None:
        while True:
            task = await self._finished.get()
            try:
                await task
            except BaseException:  # the finished task's own outcome
                pass


class MixedReaper:
    def __init__(self) -> None:
        self._tasks: asyncio.Queue = asyncio.Queue()

    def spawn(self, coro) -> None:
        task = asyncio.create_task(coro)
        self._tasks.put_nowait(task)  # still running when queued
        task.add_done_callback(self._on_done)

    def _on_done(self, task: asyncio.Task) -> None:
        self._tasks.put_nowait(task)

    async def _clean(self) -> None:
        while True:
            task = await self._tasks.get()
            try:
                await task
            except BaseException:  # error: BG102
                pass


class CallbackAlsoCalledDirectly:
    def __init__(self) -> None:
        self._finished: asyncio.Queue = asyncio.Queue()

    def spawn(self, coro) -> None:
        task = asyncio.create_task(coro)
        task.add_done_callback(self._on_done)
        self._on_done(task)  # called with a running task too

    def _on_done(self, task: asyncio.Task) -> None:
        self._finished.put_nowait(task)

    async def _clean(self) -> None:
        while True:
            task = await self._finished.get()
            try:
                await task
            except BaseException:  # error: BG102
                pass
