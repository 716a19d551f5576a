# Not flagged: return in nested def in finally is fine.
import asyncio

async def worker(callbacks):
    try:
        await asyncio.sleep(1)
    finally:
        def done():
            return True
        callbacks.append(done)
        callbacks.append(lambda: None)
