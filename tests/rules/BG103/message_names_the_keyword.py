# Flagged: message names the keyword.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    finally:
        return None  # error: BG103
