# Flagged: the atexit hook is also the SIGTERM handler: run from the handler, every thread and
# executor is still running, and the waits are real.
import atexit
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

EXECUTOR = ThreadPoolExecutor(max_workers=4)
WORKER = threading.Thread(target=print)


def stop(*_args):
    EXECUTOR.shutdown()  # error: BG405
    WORKER.join()  # error: BG405


atexit.register(stop)
signal.signal(signal.SIGTERM, stop)
