# Flagged: except star in tuple.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except* (ValueError, asyncio.CancelledError):  # error: BG105
        return None
