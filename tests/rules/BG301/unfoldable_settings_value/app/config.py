import os

QUEUE_SIZE = int(os.environ["QUEUE_SIZE"])
