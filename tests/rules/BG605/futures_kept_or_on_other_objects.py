# Not flagged: the future is kept, awaited, or given a done-callback; submit() on an object bgcheck
# does not know is an executor (a form, a job queue of your own); a dropped asyncio task (BG602's).
import asyncio
from concurrent.futures import ThreadPoolExecutor

executor = ThreadPoolExecutor(max_workers=2)
pending = []


def blocking(): ...


async def main(form, jobs):
    loop = asyncio.get_running_loop()
    executor.submit(blocking).add_done_callback(print)
    pending.append(executor.submit(blocking))
    await loop.run_in_executor(None, blocking)
    form.submit()
    jobs.submit(blocking)
    return executor.submit(blocking)
