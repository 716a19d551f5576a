# Flagged: the map attribute spelled apart from its receiver (spaces, a line break, a comment).
from concurrent.futures import ThreadPoolExecutor

def run(items, handle):
    pool = ThreadPoolExecutor()
    pool . map(handle, (item for item in items))  # error: BG302
    (pool.  # error: BG302
        # the method, on a line of its own
        map)(handle, (item for item in items))
