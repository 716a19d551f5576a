# Not flagged: sized literals and range.
import itertools
from concurrent.futures import ThreadPoolExecutor

def run(handle):
    with ThreadPoolExecutor() as pool:
        pool.map(handle, [1, 2, 3])
        pool.map(handle, (1, 2))
        pool.map(handle, {1, 2})
        pool.map(handle, [x * 2 for x in range(10)])
        pool.map(handle, range(1000))
        pool.map(handle, itertools.repeat(1, 5))
