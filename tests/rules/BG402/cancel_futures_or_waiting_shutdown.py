# Not flagged: cancel futures or waiting shutdown.
from concurrent.futures import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

EXECUTOR = ThreadPoolExecutor(max_workers=4)
SCHEDULER = BackgroundScheduler()

def stop():
    EXECUTOR.shutdown(wait=False, cancel_futures=True)
    EXECUTOR.shutdown(False, True)
    EXECUTOR.shutdown(wait=True)
    EXECUTOR.shutdown()
    SCHEDULER.shutdown()
