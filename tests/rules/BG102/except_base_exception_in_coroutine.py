# Flagged: except base exception in coroutine.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except BaseException as exc:  # error: BG102
        print(exc)
