# Not BG101: a `for` over items already in memory (an attribute, `d.values()`) ends when they run
# out, so the task does stop, if late: whether the swallowed stop matters there is BG105's
# (reported under that code).
# BG101: the same `for` inside a `while True:`, which goes round again for ever, a `for` over
# what a call returns, and one over standard input, either of which may never end. (The same
# decision as BG301's about the loops that feed a queue.)
import asyncio
import sys


class Registry:
    def __init__(self):
        self.tasks = []
        self.providers = {}
        self.config = {}

    async def shutdown(self):
        for task in self.tasks:
            try:
                await task
            except asyncio.CancelledError:  # error: BG105
                pass
        for provider in self.providers.values():
            try:
                await provider.close()
            except asyncio.CancelledError:  # error: BG105
                continue
        for name in self.config.get("extra_providers", []):
            try:
                await self.providers[name].close()
            except asyncio.CancelledError:  # error: BG105
                continue

    async def ping_all(self):
        while True:
            for provider in self.providers.values():
                try:
                    await provider.ping()
                except asyncio.CancelledError:  # error: BG101
                    pass
            await asyncio.sleep(5)

    async def follow(self, feed):
        for event in feed.events():
            try:
                await event.handle()
            except asyncio.CancelledError:  # error: BG101
                pass

    async def read_commands(self):
        for line in sys.stdin:
            try:
                await self.providers[line.strip()].ping()
            except asyncio.CancelledError:  # error: BG101
                pass


# BG105: `asyncio.as_completed(tasks)` gives one item per task it is given: the `for` ends when
# they are all done, so the cancellation swallowed there delays the stop rather than losing it.
async def first_results(tasks):
    results = []
    for future in asyncio.as_completed(tasks):
        try:
            results.append(await future)
        except asyncio.CancelledError:  # error: BG105
            pass
    return results
