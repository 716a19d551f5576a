# Flagged: generator bound to a local name.
from concurrent.futures import ThreadPoolExecutor

def run(items, handle):
    pool = ThreadPoolExecutor()
    todo = (item for item in items)
    pool.map(handle, todo)  # error: BG302
