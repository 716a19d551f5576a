# Flagged: infinite itertools.
import itertools
from concurrent.futures import ProcessPoolExecutor

POOL = ProcessPoolExecutor()

def run(handle):
    POOL.map(handle, itertools.count())  # error: BG302
    POOL.map(handle, itertools.cycle([1, 2]))  # error: BG302
    POOL.map(handle, itertools.repeat(1))  # error: BG302
