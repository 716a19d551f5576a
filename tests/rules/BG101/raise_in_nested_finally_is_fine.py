# Not flagged: raise in nested finally is fine.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        try:
            await cleanup()
        finally:
            raise
