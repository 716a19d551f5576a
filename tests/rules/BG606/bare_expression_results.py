# Flagged: bare expression results.
import asyncio
from asyncio import create_task
from concurrent.futures import ThreadPoolExecutor

executor = ThreadPoolExecutor(max_workers=2)

async def work(): ...
def blocking(): ...

async def main():
    loop = asyncio.get_running_loop()
    asyncio.create_task(work())  # error: BG606
    create_task(work())  # error: BG606
    asyncio.ensure_future(work())  # error: BG606
    loop.create_task(work())  # error: BG606
    executor.submit(blocking)  # error: BG605
    loop.run_in_executor(None, blocking)  # error: BG605
