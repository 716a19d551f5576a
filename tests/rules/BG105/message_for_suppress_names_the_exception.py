# Flagged: message for suppress names the exception.
import asyncio
from contextlib import suppress

async def worker():
    with suppress(asyncio.CancelledError):  # error: BG105
        await asyncio.sleep(1)
