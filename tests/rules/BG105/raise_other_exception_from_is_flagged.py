# Flagged: raise other exception from is flagged.
import asyncio

class Stopped(Exception):
    pass

async def worker():
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError as exc:  # error: BG105
        raise Stopped("worker stopped") from exc
