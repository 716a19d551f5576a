# Not flagged: the bound stop method handed to atexit.register is a stop call for the pool.
import atexit
import multiprocessing

HOOKED_POOL = multiprocessing.Pool(4)
atexit.register(HOOKED_POOL.close)


def work(jobs):
    return HOOKED_POOL.map(abs, jobs)
