# Not flagged: unrelated cancelled error from library.
import asyncio
from mylib.errors import CancelledError

async def worker():
    try:
        await asyncio.sleep(1)
    except CancelledError:
        pass
