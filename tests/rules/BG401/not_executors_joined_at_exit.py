# Not flagged: concurrent.futures executors kept for the process's life and never shut down. The
# interpreter's exit joins their workers after every queued item has run, as shutdown(wait=True)
# would: nothing is lost that a shutdown() call would keep.
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

OFFLOAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="offload")
CRUNCH = ProcessPoolExecutor(max_workers=2)


class Bridge:
    def __init__(self):
        self.executor = ThreadPoolExecutor(max_workers=2)

    def call(self, fn, *args):
        return self.executor.submit(fn, *args).result(timeout=30)


def offload(fn, *args):
    return OFFLOAD.submit(fn, *args).result(timeout=30)


def crunch(numbers):
    return list(CRUNCH.map(abs, numbers, timeout=60))
