import itertools
from concurrent.futures import ThreadPoolExecutor

def run(items, handle):
    with ThreadPoolExecutor() as pool:
        pool.map(handle, (i for i in items), buffersize=16)
        pool.map(handle, itertools.count(), buffersize=4)
