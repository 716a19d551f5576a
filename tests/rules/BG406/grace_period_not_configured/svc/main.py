import signal
import time
from svc.workers import stop_workers

def on_term(signum, frame):
    stop_workers()
    time.sleep(20)

signal.signal(signal.SIGTERM, on_term)
