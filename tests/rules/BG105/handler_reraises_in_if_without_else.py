# Flagged: handler reraises in if without else.
import asyncio

async def worker(strict):
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:  # error: BG105
        if strict:
            raise
