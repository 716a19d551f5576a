# Not flagged: the task cancelled and then awaited is one item of a mapping of tasks, named by the
# same key. Flagged: another key's task is awaited, or the key is an expression bgcheck does not
# compare.
import asyncio


class Tracker:
    def __init__(self):
        self._tracking_tasks = {}

    async def remove(self, pair):
        self._tracking_tasks[pair].cancel()
        try:
            await self._tracking_tasks[pair]
        except asyncio.CancelledError:
            pass

    async def remove_feed(self):
        self._tracking_tasks["feed"].cancel()
        try:
            await self._tracking_tasks["feed"]
        except asyncio.CancelledError:
            pass

    async def remove_other(self, pair, other):
        self._tracking_tasks[pair].cancel()
        try:
            await self._tracking_tasks[other]
        except asyncio.CancelledError:  # error: BG105
            pass

    async def remove_computed(self, pair):
        self._tracking_tasks[pair.upper()].cancel()
        try:
            await self._tracking_tasks[pair.upper()]
        except asyncio.CancelledError:  # error: BG105
            pass
