# Flagged: cancel in another function is not the idiom.
import asyncio

def request_stop(task):
    task.cancel()

async def wait_for_it(task):
    try:
        await task
    except asyncio.CancelledError:  # error: BG105
        pass
