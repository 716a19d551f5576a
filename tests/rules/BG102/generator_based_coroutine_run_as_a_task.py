# Flagged: a generator-based coroutine (`@asyncio.coroutine` and `yield from`, code written for
# Python before 3.11) started as a task runs on the event loop, not in a worker thread: its broad
# handler takes the task's cancellation and goes round the loop again.
import asyncio


@asyncio.coroutine
def reconnect(client):
    while True:
        try:
            return (yield from client.connect())
        except BaseException:  # error: BG102
            yield from asyncio.sleep(1)


def start(client):
    return asyncio.ensure_future(reconnect(client))
