# Not flagged: a queue filled from a parameter typed as a collection (its items are in memory
# already, however many the caller passed), and one filled by a loop that empties a list it tests,
# one item per round, and one filled from a settings lookup with a list default
# (`config.get("initial_messages", [])`).
# Flagged: a queue fed from a loop that waits on a socket, and one fed from what a call returns by
# a key that is not written out, neither with a size known in advance.
import asyncio
from typing import List, Sequence


class Dispatcher:
    def __init__(self):
        self.tasks = asyncio.PriorityQueue()
        self.calls = asyncio.Queue()
        self.startup = asyncio.Queue()
        self.frames = asyncio.Queue()  # error: BG301
        self.configured = asyncio.Queue()
        self.fetched = asyncio.Queue()  # error: BG301
        self.pending_messages = []

    async def run_urls(self, urls: List[str]):
        for url in urls:
            await self.tasks.put((0, url))

    async def run_calls(self, items: Sequence[str]):
        for item in items:
            await self.calls.put(item)

    def replay_startup(self):
        while self.pending_messages:
            message = self.pending_messages.pop(0)
            self.startup.put_nowait(message)

    async def read_frames(self, reader: asyncio.StreamReader):
        while True:
            frame = await reader.read(1024)
            self.frames.put_nowait(frame)

    def replay_configured(self, config):
        initial_messages = config.get("initial_messages", [])
        for message in initial_messages:
            self.configured.put_nowait(message)

    async def fetch(self, client, key):
        for message in client.get(key, []):
            self.fetched.put_nowait(message)
