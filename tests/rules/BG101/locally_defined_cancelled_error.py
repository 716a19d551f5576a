# Not flagged: locally defined cancelled error.
import asyncio

class CancelledError(Exception):
    pass

async def worker():
    try:
        await asyncio.sleep(1)
    except CancelledError:
        pass
