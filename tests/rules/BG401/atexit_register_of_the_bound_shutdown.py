# Not flagged: atexit register of the bound shutdown.
import atexit
from concurrent.futures import ThreadPoolExecutor

EXECUTOR = ThreadPoolExecutor(max_workers=4)
atexit.register(EXECUTOR.shutdown)
