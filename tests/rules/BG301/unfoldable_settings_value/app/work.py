import queue
from django.conf import settings
from app.config import QUEUE_SIZE

a = queue.Queue(maxsize=settings.WORK_QUEUE_SIZE)
b = queue.Queue(maxsize=QUEUE_SIZE)

def make(size):
    return queue.Queue(size)
