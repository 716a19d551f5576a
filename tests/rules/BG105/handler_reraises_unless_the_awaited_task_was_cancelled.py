# Not flagged: the handler re-raises unless the task it awaits was the one cancelled (a cancel of
# the running task leaves the shielded task running, so it goes on). Flagged: the test of a task
# other than the awaited one, and a test that does not raise.
import asyncio


class Client:
    async def disconnect(self, connection):
        connection.stop_event.set()
        try:
            await asyncio.shield(connection.task)
        except asyncio.CancelledError:
            if not connection.task.cancelled():
                raise
        return True

    async def drain(self, connection, other):
        try:
            await connection.task
        except asyncio.CancelledError:  # error: BG105
            if not other.cancelled():
                raise
        return True

    async def wait(self, connection):
        try:
            await asyncio.shield(connection.task)
        except asyncio.CancelledError:  # error: BG105
            if not connection.task.cancelled():
                print("cancelled while waiting")
        return True
