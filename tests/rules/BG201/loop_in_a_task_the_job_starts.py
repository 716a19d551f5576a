# Not flagged: an endless loop in a coroutine the job starts as a task of its own
# (`asyncio.create_task(self._flush_loop())` in a constructor the job calls): it runs beside the
# job, not in its run, which ends when the job returns. Flagged: the same loop awaited by the job,
# or run as a task of a task group the job waits for.
import asyncio

from apscheduler.schedulers.asyncio import AsyncIOScheduler

scheduler = AsyncIOScheduler()


class BatchLogger:
    def __init__(self) -> None:
        self.batch: list = []
        self.flusher = asyncio.create_task(self._flush_loop())

    async def _flush_loop(self) -> None:
        while True:
            await asyncio.sleep(5)
            self.batch.clear()


async def poll_forever() -> None:
    while True:  # error: BG201
        await asyncio.sleep(1)


@scheduler.scheduled_job("interval", minutes=5)
async def heartbeat_job() -> None:
    BatchLogger()
    await poll_forever()


async def tail_forever() -> None:
    while True:  # error: BG201
        await asyncio.sleep(1)


@scheduler.scheduled_job("interval", minutes=10)
async def tail_job() -> None:
    # a task group's block waits for its tasks: the loop is part of the job's run
    async with asyncio.TaskGroup() as group:
        group.create_task(tail_forever())
