# Not flagged: each connection's ping task is cancelled and awaited in `finally:` before the loop
# connects again (one at a time); a task started only while the attribute or name that holds it is
# empty. Flagged: a holder that is overwritten each pass and awaited nowhere in the loop, and a
# guard on something else than the holder.
import asyncio


class Stream:
    def __init__(self):
        self._ping_task = None
        self._flush = None

    async def listen(self, connect, ping):
        while True:
            ws = await connect()
            try:
                self._ping_task = asyncio.create_task(ping(ws))
                await ws.process()
            finally:
                self._ping_task.cancel()
                try:
                    await self._ping_task
                except asyncio.CancelledError:
                    pass

    async def flush_when_idle(self, inbox, flush):
        while True:
            message = await inbox.get()
            if self._flush is None and message.last:
                self._flush = asyncio.create_task(flush(message))

    async def relay(self, inbox, handle):
        outlet = None
        while True:
            message = await inbox.get()
            if not outlet:
                outlet = asyncio.create_task(handle(message))
            await message.ack()

    async def overwrite(self, inbox, handle):
        while True:
            message = await inbox.get()
            self._flush = asyncio.create_task(handle(message))  # error: BG303

    async def guarded_by_something_else(self, inbox, handle, other):
        while True:
            message = await inbox.get()
            if other is None:
                self._flush = asyncio.create_task(handle(message))  # error: BG303
