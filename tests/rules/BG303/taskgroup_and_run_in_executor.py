# Flagged: taskgroup and run in executor.
import asyncio

async def handle(message):
    return message

async def grouped(stream):
    async with asyncio.TaskGroup() as tg:
        async for message in stream:
            tg.create_task(handle(message))  # error: BG303

async def blocking(stream):
    loop = asyncio.get_running_loop()
    async for message in stream:
        loop.run_in_executor(None, print, message)  # error: BG303  error: BG605
