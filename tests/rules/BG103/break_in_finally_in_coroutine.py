# Flagged: break in finally in coroutine.
import asyncio

async def worker():
    while True:
        try:
            await asyncio.sleep(1)
        finally:
            break  # error: BG103
