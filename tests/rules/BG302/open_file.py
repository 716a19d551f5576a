# Flagged: open file.
from concurrent.futures import ThreadPoolExecutor

def run(path, handle):
    pool = ThreadPoolExecutor()
    pool.map(handle, open(path))  # error: BG302
    with open(path) as lines:
        pool.map(handle, lines)  # error: BG302
