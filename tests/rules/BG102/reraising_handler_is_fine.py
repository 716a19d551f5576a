# Not flagged: reraising handler is fine.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except:
        cleanup()
        raise
