# Flagged: passing the pool to a function is a use, not a stop.
import atexit
import multiprocessing

POOL = multiprocessing.Pool(4)  # error: BG401
atexit.register(print, POOL)
