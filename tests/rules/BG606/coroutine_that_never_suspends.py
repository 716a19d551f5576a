# Not flagged: a task of a coroutine with no await, async for or async with (one inside a function it
# defines does not count). It runs to its end in the task's first step, and the event loop holds it
# until then; an exception it raises is reported when the finished task is freed, right after.
# Flagged: the same task once its coroutine awaits: it can be collected while it waits; a stub whose
# work is written elsewhere; a method a derived class defines again (self.step() may run the override).
import asyncio
import logging

log = logging.getLogger(__name__)


class Message:
    def __init__(self, content):
        self.content = content
        self.sent = False

    async def record(self):
        self.sent = True
        log.info("message recorded: %s", self.content)

    async def deliver(self):
        await asyncio.sleep(0)
        self.sent = True

    async def with_a_callback(self):
        async def later():
            await asyncio.sleep(1)

        self.callback = later

    def send(self):
        asyncio.create_task(self.record())
        asyncio.create_task(self.with_a_callback())
        asyncio.create_task(self.deliver())  # error: BG606


class Worker:
    async def run(self):
        """Subclasses do the work."""
        raise NotImplementedError

    async def step(self):
        self.steps = 1

    def start(self):
        asyncio.create_task(self.run())  # error: BG606
        asyncio.create_task(self.step())  # error: BG606


class Poller(Worker):
    async def step(self):
        await asyncio.sleep(1)
