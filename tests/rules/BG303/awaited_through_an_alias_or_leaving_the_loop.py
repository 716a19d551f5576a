# Not flagged: the task is awaited through another name before the next item, or it is started
# on the way out of the loop (the block ends in return, break or a raise nothing in the loop catches).
import asyncio


async def handle(message):
    return await asyncio.sleep(0, message)


async def drain(stream, timeout):
    async for message in stream:
        task = asyncio.create_task(handle(message))
        waiter = task
        if timeout is not None:
            waiter = asyncio.wait_for(asyncio.shield(task), timeout)
        await waiter


async def close_on_cancel(inbox, close):
    while True:
        try:
            await inbox.get()
        except asyncio.CancelledError:
            asyncio.create_task(close())  # error: BG606
            raise


async def last_one(stream):
    async for message in stream:
        if message == "stop":
            asyncio.create_task(handle(message))  # error: BG606
            break


async def hand_back(stream):
    async for message in stream:
        if message:
            return asyncio.ensure_future(handle(message))


# Flagged: the alias is never awaited; the raise is caught inside the loop, which goes on.
async def alias_not_awaited(stream):
    async for message in stream:
        task = asyncio.create_task(handle(message))  # error: BG303
        waiter = task
        print(waiter)


async def raise_caught_in_the_loop(stream):
    async for message in stream:
        try:
            asyncio.create_task(handle(message))  # error: BG303  error: BG606
            raise ValueError(message)
        except ValueError:
            pass
