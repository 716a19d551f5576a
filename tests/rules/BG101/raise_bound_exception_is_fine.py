# Not flagged: raise bound exception is fine.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError as exc:
        cleanup()
        raise exc
