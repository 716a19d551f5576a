# Flagged: message names the exception.
import asyncio as aio

async def worker():
    try:
        await aio.sleep(1)
    except aio.CancelledError:  # error: BG105
        pass
