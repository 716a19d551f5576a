# Flagged: suppress queue full.
import contextlib
import queue

JOBS = queue.Queue(maxsize=100)

def offer(job):
    with contextlib.suppress(queue.Full):  # error: BG304
        JOBS.put_nowait(job)
