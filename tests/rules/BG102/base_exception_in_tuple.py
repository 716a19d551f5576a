# Flagged: base exception in tuple.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except (ValueError, BaseException):  # error: BG102
        return None
