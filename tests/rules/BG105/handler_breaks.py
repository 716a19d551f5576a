# Flagged: handler breaks.
import asyncio

async def worker():
    while True:
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:  # error: BG105
            break
