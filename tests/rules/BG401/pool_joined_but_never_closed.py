# Flagged: pool joined but never closed.
import multiprocessing

POOL = multiprocessing.Pool(4)  # error: BG401

def stop():
    POOL.join()
