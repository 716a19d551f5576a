# Not flagged: the handler records the stop in a flag of its object, and the runner acts on it
# (its loop's condition, an `if` that returns): the stop is honoured there.
# Flagged: a flag nothing in the class tests to stop (only to go on), so the stop is lost.
import asyncio


class Runner:
    def __init__(self, cells):
        self.cells = cells
        self.interrupted = False

    async def run_all(self):
        while self.cells and not self.interrupted:
            cell = self.cells.pop()
            try:
                await cell.run()
            except asyncio.CancelledError:
                self.interrupted = True

    async def run_hooks(self, hooks):
        for hook in hooks:
            if self.interrupted:
                return
            try:
                await hook()
            except KeyboardInterrupt:
                self.interrupted = True


class Poller:
    def __init__(self):
        self.cancelled = False

    async def poll(self, source):
        while True:
            try:
                await source.read()
            except asyncio.CancelledError:  # error: BG101
                self.cancelled = True
            if self.cancelled:
                print("was cancelled once")
