# Not flagged: the coroutine a thread hands to the loop with run_coroutine_threadsafe runs as a
# task of its own there, and its outermost `except CancelledError: pass` ends that task (nothing
# awaits it). Flagged: the same handler inside its loop keeps the work running.
import asyncio
import threading


class Consumer:
    def __init__(self):
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def start(self):
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._main(), self._loop)
        asyncio.run_coroutine_threadsafe(self._poll(), self._loop)

    async def _main(self):
        try:
            while True:
                await self._receive()
        except asyncio.CancelledError:
            pass
        finally:
            self._loop.stop()

    async def _poll(self):
        while True:
            try:
                await self._receive()
            except asyncio.CancelledError:  # error: BG101
                pass

    async def _receive(self):
        await asyncio.sleep(1)
