import queue
from app import settings
from app.settings import QUEUE_SIZE

a = queue.Queue(maxsize=QUEUE_SIZE)  # error: BG301
b = queue.Queue(settings.QUEUE_SIZE - 1)  # error: BG301
