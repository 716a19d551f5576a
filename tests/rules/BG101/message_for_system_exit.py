# Flagged: message for system exit.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except SystemExit:  # error: BG101
        pass
    await asyncio.sleep(1)  # and the coroutine carries on
