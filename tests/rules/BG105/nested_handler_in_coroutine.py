# Flagged: nested handler in coroutine.
import asyncio

async def worker():
    try:
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:  # error: BG105
            pass
    except ValueError:
        raise
