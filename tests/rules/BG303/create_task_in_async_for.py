# Flagged: create task in async for.
import asyncio

async def handle(message):
    return await asyncio.sleep(0, message)

async def consume(stream):
    async for message in stream:
        asyncio.create_task(handle(message))  # error: BG303  error: BG606
