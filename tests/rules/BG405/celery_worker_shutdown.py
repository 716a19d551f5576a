# Flagged: celery worker shutdown.
import threading
from celery.signals import worker_shutdown

WORKER = threading.Thread(target=print)

@worker_shutdown.connect
def on_worker_shutdown(**kwargs):
    WORKER.join()  # error: BG405
