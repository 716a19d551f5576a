# Not flagged: handler reraises.
import queue

JOBS = queue.Queue(maxsize=100)

class Busy(Exception):
    pass

def offer(job):
    try:
        JOBS.put_nowait(job)
    except queue.Full:
        raise

def offer_or_reject(job):
    try:
        JOBS.put_nowait(job)
    except queue.Full as exc:
        raise Busy("try later") from exc
