# Flagged: cancel then await with other awaits in try is not the idiom.
import asyncio

async def stop(task):
    task.cancel()
    try:
        await asyncio.sleep(5)
        await task
    except asyncio.CancelledError:  # error: BG105
        pass
