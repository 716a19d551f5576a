# Not flagged: loops over lists and range.
import asyncio
from concurrent.futures import ThreadPoolExecutor

POOL = ThreadPoolExecutor()

async def handle(message):
    return await asyncio.sleep(0, message)

async def fixed():
    for message in [1, 2, 3]:
        asyncio.create_task(handle(message))  # error: BG606

def numbered():
    for i in range(100):
        POOL.submit(print, i)  # error: BG605

async def batch(messages):
    for message in messages:
        asyncio.create_task(handle(message))  # error: BG606
