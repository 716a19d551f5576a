# Not flagged: the deferred re-raise. The handler keeps the stop in a local flag, the cleanup
# finishes, and the function raises the stop once the flag is set: held off, not lost.
import asyncio


async def release_all(recorders):
    cancelled = False
    for recorder in list(recorders):
        try:
            await recorder.stop()
        except asyncio.CancelledError:
            cancelled = True  # finish releasing the others first
    if cancelled:
        raise asyncio.CancelledError()


async def reclaim(resource):
    pending = None
    task = asyncio.ensure_future(resource.close())
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError as exc:
        pending = exc
        while not task.done():
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:  # a second cancel during the same cleanup
                pass
    if pending is not None:
        raise pending


async def release(stop_task):
    cancelled = False
    try:
        while True:
            try:
                return await asyncio.shield(stop_task)
            except asyncio.CancelledError:
                cancelled = True
                if stop_task.done():
                    return stop_task.result()  # the finally below re-raises over this return
    finally:
        if cancelled:
            raise asyncio.CancelledError()


# Flagged: the flag is set but only logged, never raised.
async def drain(queue, log):
    interrupted = False
    while not queue.empty():
        try:
            await queue.get()
        except asyncio.CancelledError:  # error: BG101
            interrupted = True
    if interrupted:
        log.info("drain interrupted")


# Flagged: the handler returns before the re-raise after the try, which then never runs.
async def fetch(client):
    cancelled = False
    try:
        await client.get()
    except asyncio.CancelledError:  # error: BG105
        cancelled = True
        return None
    if cancelled:
        raise asyncio.CancelledError()


# Flagged: the re-raise converts the stop into an ordinary error.
async def flush(client):
    cancelled = False
    try:
        await client.flush()
    except asyncio.CancelledError:  # error: BG105
        cancelled = True
    if cancelled:
        raise RuntimeError("flush cancelled")
