# Not flagged: leaves named cancellation to bg101.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except (BaseException, asyncio.CancelledError):  # error: BG101
        pass
