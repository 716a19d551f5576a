# Not flagged: handler logs or counts.
import logging
import queue

log = logging.getLogger(__name__)
JOBS = queue.Queue(maxsize=100)
dropped = 0

def offer_logged(job):
    try:
        JOBS.put_nowait(job)
    except queue.Full:
        log.warning("queue full, dropped %s", job)

def offer_counted(job):
    global dropped
    try:
        JOBS.put_nowait(job)
    except queue.Full:
        dropped += 1

def offer_metric(job, metrics):
    try:
        JOBS.put_nowait(job)
    except queue.Full:
        metrics.dropped_jobs.inc()


def offer_buffered(job, buffer):
    # the item waits in a buffer of the sender's own, at its front, to be put again later
    try:
        JOBS.put_nowait(job)
    except queue.Full:
        buffer.appendleft(job)
