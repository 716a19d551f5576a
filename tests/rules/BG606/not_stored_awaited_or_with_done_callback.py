# Not flagged: not stored awaited or with done callback.
import asyncio
from concurrent.futures import ThreadPoolExecutor

executor = ThreadPoolExecutor(max_workers=2)
background = set()

async def work(): ...
def blocking(): ...

async def main(tg: asyncio.TaskGroup):
    loop = asyncio.get_running_loop()
    t = asyncio.create_task(work())
    background.add(asyncio.create_task(work()))
    asyncio.create_task(work()).add_done_callback(background.discard)
    executor.submit(blocking).add_done_callback(print)
    await asyncio.create_task(work())
    f = executor.submit(blocking)
    await loop.run_in_executor(None, blocking)
    async with asyncio.TaskGroup() as group:
        group.create_task(work())
    tg.create_task(work())
    return t, f
