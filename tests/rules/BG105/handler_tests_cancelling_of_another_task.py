# Flagged: the test is of another task's cancellation, or does not re-raise: the running task's
# own cancellation is swallowed.
import asyncio


class Waiter:
    def __init__(self, helper: asyncio.Task):
        self.helper = helper

    async def wait(self, reply: asyncio.Future):
        try:
            return await reply
        except asyncio.CancelledError:  # error: BG105
            if self.helper.cancelling():
                raise
            return None


async def wait_quietly(reply: asyncio.Future, log):
    try:
        await reply
    except asyncio.CancelledError:  # error: BG105
        if asyncio.current_task().cancelling():
            log.info("cancelled while waiting")
        return None


async def wait_for_helper(helper: asyncio.Task, reply: asyncio.Future):
    # The name tested was bound to another task, not to asyncio.current_task().
    try:
        await reply
    except asyncio.CancelledError:  # error: BG105
        task = helper
        if task.cancelling():
            raise
        return None
