# Flagged: module globals never shut down.
import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

EXECUTOR = ThreadPoolExecutor(max_workers=4)  # error: BG401
PROCESSES = ProcessPoolExecutor()  # error: BG401
POOL = multiprocessing.Pool(4)  # error: BG401
SCHEDULER = BackgroundScheduler()  # error: BG401

def submit(job):
    EXECUTOR.submit(job)  # error: BG602
    PROCESSES.submit(job)  # error: BG602
    POOL.apply_async(job)
    SCHEDULER.add_job(job)
