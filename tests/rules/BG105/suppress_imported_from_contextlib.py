# Flagged: suppress imported from contextlib.
import asyncio
from contextlib import suppress

async def worker():
    with suppress(ValueError, asyncio.CancelledError):  # error: BG105
        await asyncio.sleep(1)
