# Flagged: keyboard interrupt in coroutine.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except KeyboardInterrupt:  # error: BG101
        pass
