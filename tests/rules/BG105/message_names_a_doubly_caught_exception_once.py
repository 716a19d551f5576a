# Flagged: message names a doubly caught exception once.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except (asyncio.CancelledError, asyncio.exceptions.CancelledError):  # error: BG105
        pass
