# Not flagged: cancel outside shutdown paths and timers.
import signal
import threading

TIMER = threading.Timer(5, print)

def on_term(signum, frame):
    TIMER.cancel()

signal.signal(signal.SIGTERM, on_term)

def not_a_shutdown_path(task):
    task.cancel()
