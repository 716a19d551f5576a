# Not flagged: the coroutines run only as tasks of their own, started through a wrapper that only
# awaits and returns them (through a helper, and directly): when they end on a stop, so does the task.
import asyncio
import logging


async def safe_wrapper(c):
    try:
        return await c
    except asyncio.CancelledError:
        raise
    except Exception as e:
        logging.getLogger(__name__).error("Unhandled error in background task: %s", e)


def safe_ensure_future(coro):
    return asyncio.ensure_future(safe_wrapper(coro))


class Source:
    def connect(self, ws):
        self._ping_task = safe_ensure_future(self._ping(ws))
        self._listen_task = asyncio.ensure_future(safe_wrapper(self._listen(ws)))

    async def _ping(self, ws):
        while True:
            try:
                await ws.send("ping")
                await asyncio.sleep(5)
            except asyncio.CancelledError:
                break

    async def _listen(self, ws):
        try:
            async for message in ws:
                print(message)
        except asyncio.CancelledError:
            return
