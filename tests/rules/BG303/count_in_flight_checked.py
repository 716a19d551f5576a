# Not flagged: count in flight checked.
import asyncio

async def handle(message):
    return message

async def consume(stream):
    running = set()
    async for message in stream:
        if len(running) >= 100:
            _, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
        running.add(asyncio.create_task(handle(message)))
