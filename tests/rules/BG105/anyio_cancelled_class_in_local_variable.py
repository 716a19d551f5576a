# Flagged: anyio cancelled class in local variable.
import anyio

async def worker():
    cancelled = anyio.get_cancelled_exc_class()
    try:
        await anyio.sleep(1)
    except cancelled:  # error: BG105
        pass
