# Not flagged by BG102: a clause naming the cancellation is left to BG101 and BG105 (here BG105: no loop).
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except (BaseException, asyncio.CancelledError):  # error: BG105
        pass
