# Flagged: signal handler shutdown and join.
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

EXECUTOR = ThreadPoolExecutor(max_workers=4)
WORKER = threading.Thread(target=print)

def on_term(signum, frame):
    EXECUTOR.shutdown(wait=True)  # error: BG405
    WORKER.join()  # error: BG405
    WORKER.join(None)  # error: BG405

signal.signal(signal.SIGTERM, on_term)
