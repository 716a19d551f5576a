# Not flagged: context managers and locals.
import multiprocessing
from concurrent.futures import ThreadPoolExecutor

def run(jobs):
    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(print, jobs))
    with multiprocessing.Pool(2) as procs:
        procs.map(print, jobs)
    local = ThreadPoolExecutor()
    local.submit(print)  # error: BG605
