# Flagged: anyio from import factory.
from anyio import get_cancelled_exc_class, sleep

async def worker():
    try:
        await sleep(1)
    except get_cancelled_exc_class():  # error: BG105
        pass
