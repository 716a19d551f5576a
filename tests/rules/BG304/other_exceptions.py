# Not flagged: other exceptions.
import queue

JOBS = queue.Queue(maxsize=100)

def take():
    try:
        return JOBS.get_nowait()
    except queue.Empty:
        pass
