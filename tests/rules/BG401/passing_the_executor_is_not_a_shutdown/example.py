# Flagged: passing the executor is not a shutdown.
import atexit
from concurrent.futures import ThreadPoolExecutor

EXECUTOR = ThreadPoolExecutor(max_workers=4)  # error: BG401
atexit.register(print, EXECUTOR)
