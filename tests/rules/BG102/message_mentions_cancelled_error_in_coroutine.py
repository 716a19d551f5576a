# Flagged: message mentions cancelled error in coroutine.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except:  # error: BG102
        pass
