import signal
from svc.workers import stop_workers

def on_term(signum, frame):
    stop_workers()

signal.signal(signal.SIGTERM, on_term)
