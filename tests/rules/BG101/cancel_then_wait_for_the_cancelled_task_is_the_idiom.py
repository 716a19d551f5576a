# Not flagged: cancel then wait for the cancelled task is the idiom.
import asyncio

async def stop(task, other):
    task.cancel()
    try:
        await asyncio.wait_for(task, timeout=5)
    except asyncio.CancelledError:
        pass
    other.cancel()
    try:
        await asyncio.gather(other, return_exceptions=False)
    except asyncio.CancelledError:
        pass
