# Flagged: in tuple with other exceptions.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except (ValueError, asyncio.CancelledError, OSError):  # error: BG105
        pass
