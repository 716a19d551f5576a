# Not flagged: the loops poll a flag of their own object that another method sets when the
# service stops (`stop()` sets `self._shut_down = True`, `__exit__` clears `self.spinning`).
# Flagged: a flag only `__init__` and the loop's own function assign: nothing else ever flips it.
import asyncio
import threading
import time


class Farmer:
    def __init__(self):
        self._shut_down = False
        self.ready = False

    def start(self):
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._refresh()), loop.create_task(self._wait_ready())]

    async def _refresh(self):
        while not self._shut_down:
            await asyncio.sleep(5)

    async def _wait_ready(self):
        self.ready = False
        while not self.ready:  # error: BG206
            await asyncio.sleep(1)

    def stop(self):
        self._shut_down = True


class Spinner:
    def __init__(self):
        self.spinning = False

    def __enter__(self):
        self.spinning = True
        self.thread = threading.Thread(target=self._spin)
        self.thread.start()
        return self

    def _spin(self):
        while self.spinning:
            time.sleep(0.1)

    def __exit__(self, *exc):
        self.spinning = False
        self.thread.join()
