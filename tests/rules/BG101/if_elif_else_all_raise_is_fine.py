# Not flagged: if elif else all raise is fine.
import asyncio

async def worker(mode):
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        if mode == 1:
            raise
        elif mode == 2:
            cleanup()
            raise
        else:
            log("stopped")
            raise
