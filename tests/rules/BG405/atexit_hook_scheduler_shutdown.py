# Flagged: atexit hook scheduler shutdown.
import atexit
from apscheduler.schedulers.background import BackgroundScheduler

SCHEDULER = BackgroundScheduler()

@atexit.register
def at_exit():
    SCHEDULER.shutdown()  # error: BG405

def registered():
    SCHEDULER.shutdown(True)  # error: BG405

atexit.register(registered)
