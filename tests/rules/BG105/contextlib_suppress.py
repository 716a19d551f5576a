# Flagged: contextlib suppress.
import asyncio
import contextlib

async def worker():
    with contextlib.suppress(asyncio.CancelledError):  # error: BG105
        await asyncio.sleep(1)
