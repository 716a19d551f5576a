# Not BG101: the loop's only await is of a coroutine whose one suspension point sits in a `try`
# that takes CancelledError and never raises: a cancellation of the running task ends in that
# handler, the await hands back normally, and the loop's own handler never runs.
# BG101: the same loop around a coroutine whose handler re-raises (the cancellation comes out),
# and around one that also suspends outside its `try`. The helpers that swallow the cancellation
# themselves are BG105's (they end as if they had finished).
import asyncio


class Service:
    def __init__(self):
        self.futures = set()

    async def wait_shielded(self):
        if self.futures:
            try:
                await asyncio.shield(asyncio.wait(self.futures))
            except ValueError:
                pass
            except asyncio.CancelledError:  # error: BG105
                pass

    async def wait_shielded_and_reraise(self):
        try:
            await asyncio.shield(asyncio.wait(self.futures))
        except asyncio.CancelledError:
            raise

    async def wait_then_sleep(self):
        try:
            await asyncio.shield(asyncio.wait(self.futures))
        except asyncio.CancelledError:  # error: BG105
            pass
        await asyncio.sleep(0.1)

    async def gather_futures(self):
        while self.futures:
            try:
                await self.wait_shielded()
            except asyncio.CancelledError:
                continue
            else:
                break
        self.futures.clear()

    async def gather_and_reraise(self):
        while self.futures:
            try:
                await self.wait_shielded_and_reraise()
            except asyncio.CancelledError:  # error: BG101
                continue
            else:
                break

    async def gather_then_sleep(self):
        while self.futures:
            try:
                await self.wait_then_sleep()
            except asyncio.CancelledError:  # error: BG101
                continue
            else:
                break
