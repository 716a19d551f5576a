# Flagged: try star finally.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except* ValueError:
        pass
    finally:
        return None  # error: BG103
