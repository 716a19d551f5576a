# Flagged: generator expression.
from concurrent.futures import ThreadPoolExecutor

def run(items, handle):
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(handle, (item for item in items if item)))  # error: BG302
