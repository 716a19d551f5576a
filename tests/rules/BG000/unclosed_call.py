# Flagged: a call left open; the finding is where CPython reports the syntax error.
import asyncio


async def worker(queue):
    item = await queue.get(  # error: BG000
    return item
