# Flagged: except star base exception in coroutine.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except* BaseException:  # error: BG102
        pass
