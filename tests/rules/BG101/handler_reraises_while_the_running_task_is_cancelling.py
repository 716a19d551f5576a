# Not flagged: Python 3.11's idiom. While the running task is being cancelled the handler
# re-raises; what it swallows is the awaited future's own cancellation by someone else.
import asyncio


async def wait_for_reply(reply: asyncio.Future):
    try:
        return await reply
    except asyncio.CancelledError:
        if (task := asyncio.current_task()) and task.cancelling():
            raise
        return None


async def wait_for_ack(ack: asyncio.Future, log):
    try:
        await ack
    except asyncio.CancelledError:
        if asyncio.current_task().cancelling():
            raise
        log.info("ack withdrawn")


async def disconnect(exit_stack, log):
    # The same test written over two statements: the running task bound first, then tested.
    try:
        await exit_stack.aclose()
    except asyncio.CancelledError as exc:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise
        log.debug("suppressed the library's internal cancellation: %s", exc)
