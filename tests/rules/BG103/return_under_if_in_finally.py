# Flagged: return under if in finally.
import asyncio

async def worker(flag):
    try:
        await asyncio.sleep(1)
    finally:
        if flag:
            return 1  # error: BG103
