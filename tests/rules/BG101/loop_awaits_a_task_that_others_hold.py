# BG105, not BG101: the worker awaits `run_task()`, which makes a task of the handler, hands it to
# the module's task counter (where a watchdog cancels handlers that run too long) and awaits it.
# The CancelledError caught may be that handler's, cancelled by the watchdog, and skipping the
# event is then what the worker should do; whether a stop of the worker itself is lost depends
# on who cancels what.
# BG101: the same worker whose `run_task()` keeps its task to itself: the only cancellation that
# can arrive is the worker's own, and the loop goes round again.
import asyncio


class TaskCounter:
    def __init__(self):
        self.tasks = {}

    def track(self, name, task):
        self.tasks[name] = task

    async def watchdog(self, limit):
        while True:
            await asyncio.sleep(limit)
            for task in list(self.tasks.values()):
                task.cancel()


class Module:
    def __init__(self, queue):
        self.queue = queue
        self.counter = TaskCounter()

    async def run_task(self, coro, name):
        task = asyncio.create_task(coro)
        self.counter.track(name, task)
        return await task

    async def handle_event(self, event):
        await asyncio.sleep(1)

    async def worker(self):
        while True:
            event = await self.queue.get()
            try:
                await self.run_task(self.handle_event(event), f"handle_event({event})")
            except asyncio.CancelledError:  # error: BG105
                continue


class PrivateModule:
    def __init__(self, queue):
        self.queue = queue

    async def run_task(self, coro):
        task = asyncio.create_task(coro)
        return await task

    async def handle_event(self, event):
        await asyncio.sleep(1)

    async def worker(self):
        while True:
            event = await self.queue.get()
            try:
                await self.run_task(self.handle_event(event))
            except asyncio.CancelledError:  # error: BG101
                continue
