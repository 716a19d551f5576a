# Not flagged: waits with a timeout.
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

EXECUTOR = ThreadPoolExecutor(max_workers=4)
WORKER = threading.Thread(target=print)

def on_term(signum, frame):
    WORKER.join(timeout=5)
    WORKER.join(5)
    EXECUTOR.shutdown(wait=False, cancel_futures=True)
    print(", ".join(["a", "b"]))

signal.signal(signal.SIGTERM, on_term)
