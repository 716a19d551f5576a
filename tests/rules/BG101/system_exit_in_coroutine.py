# Flagged: system exit in coroutine.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except SystemExit:  # error: BG101
        print("ignoring exit")
    await asyncio.sleep(1)  # and the coroutine carries on
