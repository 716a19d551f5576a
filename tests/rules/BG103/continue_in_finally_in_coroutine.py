# Flagged: continue in finally in coroutine.
import asyncio

async def worker(items):
    for item in items:
        try:
            await process(item)
        finally:
            continue  # error: BG103
