# Not flagged: not event checked before return.
import threading
import time
from celery import shared_task

stop = threading.Event()

@shared_task
def follow():
    while True:
        if stop.is_set():
            return
        time.sleep(1)
