# Flagged: the wrapper goes on after the coroutine it awaits (it records the run as finished), so
# a stop the coroutine swallows is recorded as a finished run.
import asyncio


async def tracked(c, registry):
    result = await c
    registry.append(result)
    return result


def start(coro, registry):
    return asyncio.ensure_future(tracked(coro, registry))


class Source:
    def connect(self, ws, registry):
        self._ping_task = start(self._ping(ws), registry)

    async def _ping(self, ws):
        while True:
            try:
                await ws.send("ping")
                await asyncio.sleep(5)
            except asyncio.CancelledError:  # error: BG105
                break
