# Not flagged: the helpers run only in the `finally:` of the connection's loop, directly or through
# another helper: a cancellation they swallow holds the stop off until the cleanup is done, then
# the connection's coroutine leaves, as when the swallow is written in the `finally:` itself.
import asyncio


class Connection:
    def __init__(self, reader):
        self.reader = reader
        self.pending: set = set()

    async def serve(self):
        try:
            while True:
                request = await self.reader.next_request()
                self.pending.add(asyncio.ensure_future(request.handle()))
        finally:
            await self._settle_pending()
            await self._close()

    async def _settle_pending(self):
        try:
            await asyncio.wait(self.pending)
            return
        except asyncio.CancelledError:
            pass
        for task in self.pending:
            task.cancel()
        await asyncio.gather(*self.pending, return_exceptions=True)

    async def _close(self):
        await self._flush_reader()

    async def _flush_reader(self):
        try:
            await self.reader.drain()
        except asyncio.CancelledError:
            pass
