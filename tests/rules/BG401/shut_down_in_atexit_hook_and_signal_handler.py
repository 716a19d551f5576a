# Not flagged: shut down in atexit hook and signal handler.
import atexit
import multiprocessing
import signal
from concurrent.futures import ThreadPoolExecutor

HOOKED = ThreadPoolExecutor(max_workers=4)
SIGNALLED = ThreadPoolExecutor(max_workers=4)
WORKERS = multiprocessing.Pool(4)

@atexit.register
def _close():
    HOOKED.shutdown(wait=True)  # not BG405 either: atexit hooks run after its workers were joined

def _on_term(signum, frame):
    SIGNALLED.shutdown(cancel_futures=True)  # error: BG405
    WORKERS.close()

signal.signal(signal.SIGTERM, _on_term)

def work(jobs):
    return WORKERS.map(abs, jobs)
