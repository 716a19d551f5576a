# Not flagged: except star reraising is fine.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except* asyncio.CancelledError:
        cleanup()
        raise
