# Not flagged: the stop is re-raised unless a worker had already failed; then the handler raises
# that earlier failure (chained), so the watcher ends with the error that stopped the work.
import asyncio


class WorkerFailed(Exception):
    pass


async def watch(events, spawn):
    failure = None

    def on_crash(exc):
        nonlocal failure
        failure = exc

    try:
        async for event in events:
            await spawn(event, on_crash)
    except asyncio.CancelledError:
        if failure is None:
            raise
        raise WorkerFailed("a worker crashed; stopping") from failure


async def supervise(jobs, state):
    try:
        await jobs.run_all()
    except asyncio.CancelledError:
        if state.error is not None:
            raise WorkerFailed("a job failed") from state.error
        raise
