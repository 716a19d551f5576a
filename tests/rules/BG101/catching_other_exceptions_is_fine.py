# Not flagged: catching other exceptions is fine.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except (ValueError, asyncio.TimeoutError):
        pass
