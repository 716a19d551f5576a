# Not BG101: the handler sets a flag and the loop leaves on it before another round. A reconnect
# loop whose handler sets `abort = True` and whose next statement is `if abort: ... break`; a reader
# whose handler calls `self.close()`, which sets `self._closing`, the flag its `while` tests.
# BG101: the next statement tests the flag but does not leave; the method called sets another flag.
import asyncio


class Client:
    def __init__(self, transport):
        self.transport = transport
        self.abort_event = asyncio.Event()
        self._closing = False

    async def reconnect(self):
        while True:
            abort = False
            try:
                await asyncio.wait_for(self.abort_event.wait(), 5)
                abort = True
            except asyncio.TimeoutError:
                pass
            except asyncio.CancelledError:  # error: BG105
                abort = True
            if abort:
                print("reconnect aborted")
                break
            await self.transport.connect()

    async def reconnect_and_log(self):
        while True:
            abort = False
            try:
                await asyncio.wait_for(self.abort_event.wait(), 5)
            except asyncio.CancelledError:  # error: BG101
                abort = True
            if abort:
                print("asked to abort, trying again")
            await self.transport.connect()

    def close(self):
        self._closing = True

    def mark_stale(self):
        self.stale = True

    async def read_forever(self):
        while not self._closing:
            try:
                await self.transport.read()
            except asyncio.CancelledError:  # error: BG105
                self.close()

    async def read_until_stale(self):
        while not self._closing:
            try:
                await self.transport.read()
            except asyncio.CancelledError:  # error: BG101
                self.mark_stale()
