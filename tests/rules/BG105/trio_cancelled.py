# Flagged: trio cancelled.
import trio

async def worker():
    try:
        await trio.sleep(1)
    except trio.Cancelled:  # error: BG105
        pass
