# Flagged: return in nested finally reported once.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    finally:
        try:
            await asyncio.sleep(1)
        finally:
            return None  # error: BG103
