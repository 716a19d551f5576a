# Flagged: except queue full pass.
import queue

JOBS = queue.Queue(maxsize=100)

def offer(job):
    try:
        JOBS.put_nowait(job)
    except queue.Full:  # error: BG304
        pass
