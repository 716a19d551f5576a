# Not flagged: a plain call is asyncio's only when its name comes from asyncio. A local bound to
# another object's method (a task manager's, looked up with getattr) and the project's own function
# of that name (which keeps the task it makes) are not.
# Flagged: ensure_future imported from asyncio.
import asyncio
from asyncio import ensure_future

_running: set = set()


async def sweep():
    await asyncio.sleep(60)


def create_task(coro):
    task = asyncio.create_task(coro)
    _running.add(task)
    task.add_done_callback(_running.discard)
    return task


def start_sweeper(manager):
    create_task = getattr(manager, "create_task", None)
    if callable(create_task):
        create_task(sweep(), name="sweeper")


async def start_kept():
    create_task(sweep())


async def start_dropped():
    ensure_future(sweep())  # error: BG606
