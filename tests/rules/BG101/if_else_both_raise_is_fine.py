# Not flagged: if else both raise is fine.
import asyncio

async def worker(strict):
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        if strict:
            raise
        else:
            cleanup()
            raise
