# Not flagged: outside a loop and loops with a condition.
import asyncio

async def handle(message):
    return await asyncio.sleep(0, message)

async def once(message):
    asyncio.create_task(handle(message))  # error: BG606

async def until_stopped(inbox, stop):
    while not stop.is_set():
        asyncio.create_task(handle(await inbox.get()))  # error: BG606
