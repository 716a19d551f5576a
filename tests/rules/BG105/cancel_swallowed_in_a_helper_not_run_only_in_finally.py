# Flagged: the first helper is also called outside the `finally:`; the second is called in a
# `finally:` inside a loop, which goes round again once the cleanup is done.
import asyncio


class Relay:
    def __init__(self, source):
        self.source = source

    async def run(self):
        try:
            while True:
                await self.source.forward()
                await self._flush()
        finally:
            await self._flush()

    async def _flush(self):
        try:
            await self.source.flush()
        except asyncio.CancelledError:  # error: BG105
            pass

    async def run_batches(self):
        while True:
            try:
                await self.source.forward_batch()
            finally:
                await self._release()

    async def _release(self):
        try:
            await self.source.release()
        except asyncio.CancelledError:  # error: BG105
            pass
