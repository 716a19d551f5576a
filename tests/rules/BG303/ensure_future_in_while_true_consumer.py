# Flagged: ensure future in while true consumer.
import asyncio

async def handle(message):
    return await asyncio.sleep(0, message)

async def consume(inbox):
    while True:
        message = await inbox.get()
        asyncio.ensure_future(handle(message))  # error: BG303  error: BG606
