# Not flagged: suppress of other exceptions is fine.
import asyncio
from contextlib import suppress

async def worker():
    with suppress(ValueError):
        await asyncio.sleep(1)
