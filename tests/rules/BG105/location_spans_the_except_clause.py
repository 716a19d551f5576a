# Flagged: location spans the except clause.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:  # error: BG105
        pass
