# Flagged: create task in async for.
import asyncio

async def handle(message):
    return message

async def consume(stream):
    async for message in stream:
        asyncio.create_task(handle(message))  # error: BG303  error: BG602
