# Flagged: base exception reraised as other is flagged.
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except BaseException as exc:  # error: BG102
        raise RuntimeError("worker failed") from exc
