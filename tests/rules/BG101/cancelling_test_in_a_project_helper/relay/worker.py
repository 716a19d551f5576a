import asyncio

from relay.cancellation import being_cancelled, owner_cancelled, task_is_cancelling, task_was_cancelled


class Relay:
    def __init__(self, bus):
        self.bus = bus
        self.running = True
        self.status = "idle"

    async def consume(self):
        while self.running:
            try:
                message = await self.bus.next()
            except asyncio.CancelledError:
                if not self.running or task_is_cancelling():
                    raise
                continue
            await self.bus.handle(message)

    async def connect(self):
        while True:
            try:
                await self.bus.connect()
            except asyncio.CancelledError:
                self.status = "failed"
                if being_cancelled():
                    raise

    async def listen(self):
        while True:
            try:
                await self.bus.listen()
            except asyncio.CancelledError:  # error: BG101
                if task_was_cancelled():
                    raise

    # The helper tests the running task when called with no argument; given another task, it tests that one.
    async def drain(self):
        while True:
            try:
                await self.bus.drain()
            except asyncio.CancelledError:
                if owner_cancelled():
                    raise

    async def watch(self, reader):
        while True:
            try:
                await self.bus.watch()
            except asyncio.CancelledError:  # error: BG101
                if owner_cancelled(reader):
                    raise
