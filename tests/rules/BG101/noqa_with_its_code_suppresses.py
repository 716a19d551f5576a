# Not flagged: noqa with its code suppresses.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:  # noqa: BG101
        pass
