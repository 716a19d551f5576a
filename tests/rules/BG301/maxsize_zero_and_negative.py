# Flagged: maxsize zero and negative.
import asyncio
import multiprocessing
import queue

a = queue.Queue(0)  # error: BG301
b = queue.LifoQueue(maxsize=0)  # error: BG301
c = queue.PriorityQueue(maxsize=-1)  # error: BG301
d = asyncio.Queue(maxsize=0)  # error: BG301
e = multiprocessing.JoinableQueue(-1)  # error: BG301

async def pump(reader):
    async for line in reader:
        a.put(line)
        b.put(line)
        c.put(line)
        d.put_nowait(line)
        e.put(line)
