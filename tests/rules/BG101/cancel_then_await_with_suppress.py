# Not flagged: cancel then await with suppress.
import asyncio
import contextlib

async def stop(task):
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
