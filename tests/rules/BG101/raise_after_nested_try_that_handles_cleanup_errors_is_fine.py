# Not flagged: raise after nested try that handles cleanup errors is fine.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        try:
            await cleanup()
        except Exception:
            pass
        raise
