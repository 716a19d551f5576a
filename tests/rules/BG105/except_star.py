# Flagged: except star.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except* asyncio.CancelledError:  # error: BG105
        pass
