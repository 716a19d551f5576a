# Not flagged: a loop that moves what another queue holds now into this one, taking without waiting
# (get_nowait(), get(block=False)) until that queue is empty. It adds no item: every one was already
# in memory, and the loop ends with the other queue's content (a queue rebuilt on a new event loop).
# Flagged: a stage that waits for the next item of another queue (get()) and puts it on, or polls one
# and goes round again when it is empty: fed from a stream, it grows whenever its consumer is slower
# than the stage before.
import asyncio


class Mailbox:
    def __init__(self):
        self.messages = asyncio.Queue()
        self.results = asyncio.Queue()  # error: BG301
        self.polled = asyncio.Queue()  # error: BG301

    def rebind(self):
        old = self.messages
        self.messages = asyncio.Queue()
        while True:
            try:
                self.messages.put_nowait(old.get_nowait())
            except asyncio.QueueEmpty:
                break

    def restore(self, saved: asyncio.Queue):
        while not saved.empty():
            item = saved.get(block=False)
            self.messages.put_nowait(item)

    async def stage(self, inbox: asyncio.Queue):
        while True:
            item = await inbox.get()
            await self.results.put(item)

    async def poll(self, inbox: asyncio.Queue):
        while True:
            try:
                item = inbox.get_nowait()
            except asyncio.QueueEmpty:
                await asyncio.sleep(0.1)
                continue
            self.polled.put_nowait(item)
