# Flagged: except asyncio queue full pass.
import asyncio

INBOX = asyncio.Queue(maxsize=100)

def offer(job):
    try:
        INBOX.put_nowait(job)
    except asyncio.QueueFull:  # error: BG304
        pass
