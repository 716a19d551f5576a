# Not flagged: cancel inside try then await.
import asyncio

async def stop(task):
    try:
        task.cancel()
        await task
    except asyncio.CancelledError:
        pass
