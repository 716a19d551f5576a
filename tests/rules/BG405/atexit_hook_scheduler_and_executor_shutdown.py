# Flagged: atexit hook scheduler and executor shutdown.
import atexit
from concurrent.futures import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

EXECUTOR = ThreadPoolExecutor(max_workers=4)
SCHEDULER = BackgroundScheduler()

@atexit.register
def at_exit():
    SCHEDULER.shutdown()  # error: BG405
    EXECUTOR.shutdown()  # error: BG405

def registered():
    EXECUTOR.shutdown(True)  # error: BG405

atexit.register(registered)
