# Not flagged: bounded wait follows.
from concurrent.futures import ThreadPoolExecutor, wait
from apscheduler.schedulers.background import BackgroundScheduler

EXECUTOR = ThreadPoolExecutor(max_workers=4)
SCHEDULER = BackgroundScheduler()

def stop(futures, worker):
    EXECUTOR.shutdown(wait=False)
    wait(futures, timeout=10)

def stop_scheduler(worker):
    SCHEDULER.shutdown(wait=False)
    worker.join(5)
