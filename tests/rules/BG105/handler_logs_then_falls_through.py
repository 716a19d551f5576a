# Flagged: handler logs then falls through.
import asyncio
import logging

log = logging.getLogger(__name__)

async def worker():
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError as exc:  # error: BG105
        log.warning("cancelled: %s", exc)
    return 1
