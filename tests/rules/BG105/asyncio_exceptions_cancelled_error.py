# Flagged: asyncio exceptions cancelled error.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except asyncio.exceptions.CancelledError:  # error: BG105
        pass
