# Not flagged: unrelated cancelled class from library.
import asyncio
from mylib.errors import Cancelled

async def worker():
    try:
        await asyncio.sleep(1)
    except Cancelled:
        pass
