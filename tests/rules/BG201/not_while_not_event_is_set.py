# Not flagged: not while not event is set.
import threading
import time
from celery import shared_task

stop = threading.Event()

@shared_task
def follow():
    while not stop.is_set():
        time.sleep(1)
