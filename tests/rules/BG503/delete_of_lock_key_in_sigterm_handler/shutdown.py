import signal
import sys

from clients import LOCK_KEY, r

def on_term(signum, frame):
    r.delete(LOCK_KEY)  # error: BG503
    sys.exit(0)

signal.signal(signal.SIGTERM, on_term)
