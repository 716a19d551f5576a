# Not flagged: positive literal.
import asyncio
import multiprocessing
import queue

a = queue.Queue(100)
b = queue.PriorityQueue(maxsize=10)
c = asyncio.Queue(maxsize=1)
d = multiprocessing.Queue(maxsize=50)
e = multiprocessing.JoinableQueue(8)
