# `except CancelledError` around awaiting a task from the done set of `asyncio.wait()`: the task
# is finished, the await does not suspend, and the CancelledError is that task's outcome (it was
# cancelled), not a stop of this coroutine. Not flagged. Around a pending task: flagged, as BG105:
# the `for` over the pending set ends when it runs out, so the loop does not go on for ever; and in
# a `while True:`, as BG105 too: a task taken from a set may be cancelled by whoever holds the set,
# so the CancelledError caught may be that task's and not the running task's own.
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


# The same name made as a task, then taken from the done set and from the pending set in turn (a
# worker's loop): where it is awaited, the `for` over the done set bound it, so the task is done.
# Not flagged. Awaited after the `for` over the pending set rebinds it: flagged.
async def worker_loop(queue):
    running = set()
    while True:
        job = asyncio.create_task(queue.get())
        running.add(job)
        done, pending = await asyncio.wait(running, timeout=0.01)
        for job in done:
            running.discard(job)
            try:
                await job
            except asyncio.CancelledError:  # the finished task was cancelled
                continue
        for job in pending:
            job.cancel()


async def worker_loop_rebound(queue):
    running = set()
    while True:
        done, pending = await asyncio.wait(running, timeout=0.01)
        for job in done:
            job = pending.pop()
            try:
                await job
            except asyncio.CancelledError:  # error: BG105
                continue


# Not flagged: the `if` around the await tests that the task is done, so the await hands back
# its outcome without suspending.
async def relay(ws):
    reader = None
    while True:
        if reader is not None and reader.done():
            try:
                await reader
            except asyncio.CancelledError:
                pass
            reader = None
        reader = asyncio.create_task(ws.recv())
        await ws.send("ping")


# Flagged: the name is bound to a new task between the test and the await.
async def relay_rebound(ws):
    reader = None
    while True:
        if reader is not None and reader.done():
            reader = asyncio.create_task(ws.recv())
            try:
                await reader
            except asyncio.CancelledError:  # error: BG101
                pass
        await ws.send("ping")
