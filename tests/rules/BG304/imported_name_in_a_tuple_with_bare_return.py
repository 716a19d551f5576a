# Flagged: imported name in a tuple with bare return.
from queue import Full, Queue

JOBS = Queue(maxsize=100)

def offer(job):
    try:
        JOBS.put(job, block=False)
    except (ValueError, Full):  # error: BG304
        return
