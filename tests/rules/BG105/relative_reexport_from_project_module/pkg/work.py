import asyncio
from .compat import Stop

async def worker():
    try:
        await asyncio.sleep(1)
    except Stop:  # error: BG105
        pass
