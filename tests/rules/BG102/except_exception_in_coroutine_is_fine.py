# Not flagged: except exception in coroutine is fine.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except Exception:
        pass
