# Flagged: every constructor without maxsize.
import asyncio
import multiprocessing
import queue

a = queue.Queue()  # error: BG301
b = queue.LifoQueue()  # error: BG301
c = queue.PriorityQueue()  # error: BG301
d = asyncio.Queue()  # error: BG301
e = asyncio.LifoQueue()  # error: BG301
f = asyncio.PriorityQueue()  # error: BG301
g = multiprocessing.Queue()  # error: BG301
h = multiprocessing.JoinableQueue()  # error: BG301

def fan_in(stream):
    while True:
        item = stream.read()
        a.put(item)
        b.put(item)
        c.put(item)
        d.put_nowait(item)
        e.put_nowait(item)
        f.put_nowait(item)
        g.put(item)
        h.put(item)
