# Not flagged: cancel then await.
import asyncio

async def stop(task):
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
