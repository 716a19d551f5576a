# Not flagged: coroutine without await in try is fine.
import asyncio

async def worker(data):
    await asyncio.sleep(0)
    try:
        value = parse(data)
    finally:
        return None
