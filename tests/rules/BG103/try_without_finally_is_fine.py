# Not flagged: try without finally is fine.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except ValueError:
        return None
