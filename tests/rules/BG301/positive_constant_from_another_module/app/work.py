import queue
from app import limits
from app.limits import QUEUE_SIZE

a = queue.Queue(maxsize=QUEUE_SIZE)
b = queue.Queue(limits.QUEUE_SIZE * 2)
