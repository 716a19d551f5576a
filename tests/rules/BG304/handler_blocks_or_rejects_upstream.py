# Not flagged: handler blocks or rejects upstream.
import asyncio
import queue

JOBS = queue.Queue(maxsize=100)
INBOX = asyncio.Queue(maxsize=100)

def offer_blocking(job):
    try:
        JOBS.put_nowait(job)
    except queue.Full:
        JOBS.put(job, timeout=5)

def offer_or_refuse(job):
    try:
        INBOX.put_nowait(job)
    except asyncio.QueueFull:
        return False
    return True
