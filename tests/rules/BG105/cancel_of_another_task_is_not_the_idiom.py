# Flagged: cancel of another task is not the idiom.
import asyncio

async def stop(task, other):
    task.cancel()
    try:
        await other
    except asyncio.CancelledError:  # error: BG105
        pass
