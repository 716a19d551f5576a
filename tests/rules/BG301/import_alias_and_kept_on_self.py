# Flagged: import alias and kept on self.
from asyncio import Queue as AQ
from queue import LifoQueue

class Consumer:
    def __init__(self):
        self.inbox = AQ()  # error: BG301
        self.stack = LifoQueue()  # error: BG301

    async def read(self, ws):
        async for message in ws:
            self.inbox.put_nowait(message)
            self.stack.put(message)
