# Not flagged: not a queue constructor.
import collections

class Queue:
    pass

a = Queue()
b = collections.deque(maxlen=10)
