# `except CancelledError` around awaiting a task from the done set of `asyncio.wait()`: the task
# is finished, the await does not suspend, and the CancelledError is that task's outcome (it was
# cancelled), not a stop of this coroutine. Not flagged. Around a pending task: flagged, as BG105:
# the `for` over the pending set ends when it runs out, so the loop does not go on for ever.
import asyncio


async def outcomes(tasks):
    done, pending = await asyncio.wait(tasks, timeout=1)
    results = []
    for finished in done:
        try:
            results.append(await finished)
        except asyncio.CancelledError:  # the finished task was cancelled
            results.append(None)
    for waiting in pending:
        try:
            results.append(await waiting)
        except asyncio.CancelledError:  # error: BG105
            results.append(None)
    return results
