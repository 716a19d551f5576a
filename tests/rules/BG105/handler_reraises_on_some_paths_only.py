# Flagged: handler reraises on some paths only.
import asyncio

async def worker(strict):
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:  # error: BG105
        if strict:
            raise
        else:
            cleanup()
