# Flagged: await before cancel is not the idiom.
import asyncio

async def run(task):
    try:
        await task
    except asyncio.CancelledError:  # error: BG101
        pass
    task.cancel()
