# Flagged: message names each exception of a tuple.
import asyncio
import trio

async def worker():
    try:
        await asyncio.sleep(1)
    except (asyncio.CancelledError, trio.Cancelled):  # error: BG105
        pass
