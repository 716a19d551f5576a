# Flagged: anyio get cancelled exc class call.
import anyio

async def worker():
    try:
        await anyio.sleep(1)
    except anyio.get_cancelled_exc_class():  # error: BG105
        pass
