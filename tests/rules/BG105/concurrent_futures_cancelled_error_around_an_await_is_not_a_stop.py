# Not flagged: in a coroutine, concurrent.futures' CancelledError is never the task's own
# cancellation (since Python 3.8 asyncio's is a BaseException of its own); around an await of a
# remote job it is how that job reports it was cancelled, and no result is read here.
from concurrent.futures import CancelledError


async def watch(cluster, job, finished):
    try:
        await cluster.wait_until_settled(job)
    except CancelledError:
        pass
    finished.append(job)
