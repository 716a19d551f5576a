# Not flagged: semaphore held.
import asyncio

async def handle(message):
    return message

async def consume(stream):
    limit = asyncio.Semaphore(10)
    async for message in stream:
        await limit.acquire()
        task = asyncio.create_task(handle(message))
        task.add_done_callback(lambda _: limit.release())
