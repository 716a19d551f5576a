# Flagged: await before cancel is not the idiom.
import asyncio

async def run(task):
    try:
        await task
    except asyncio.CancelledError:  # error: BG105
        pass
    task.cancel()
