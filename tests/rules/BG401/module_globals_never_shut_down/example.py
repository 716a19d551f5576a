# Flagged: multiprocessing pools kept in module globals and never closed.
# Not flagged: the executors and the scheduler (their exit loses no work a shutdown() would keep).
import multiprocessing
from multiprocessing.pool import ThreadPool
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

EXECUTOR = ThreadPoolExecutor(max_workers=4)
PROCESSES = ProcessPoolExecutor()
POOL = multiprocessing.Pool(4)  # error: BG401
THREADS = ThreadPool(2)  # error: BG401
SPAWNED = multiprocessing.get_context("spawn").Pool(2)  # error: BG401
SCHEDULER = BackgroundScheduler()

def submit(job):
    EXECUTOR.submit(job)  # error: BG605
    PROCESSES.submit(job)  # error: BG605
    POOL.apply_async(job)
    THREADS.apply_async(job)
    SPAWNED.map_async(job, [1, 2])
    SCHEDULER.add_job(job)
