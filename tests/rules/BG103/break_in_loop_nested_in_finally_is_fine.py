# Not flagged: break in loop nested in finally is fine.
import asyncio

async def worker(items):
    try:
        await asyncio.sleep(1)
    finally:
        for item in items:
            if item:
                break
        while True:
            continue
