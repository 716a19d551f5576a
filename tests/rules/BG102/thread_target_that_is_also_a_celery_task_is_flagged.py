# Flagged: the same function is also a Celery task, which runs on the worker's main thread, where
# the stop arrives.
import threading

import requests
from celery import shared_task


@shared_task
def send_events():
    try:
        requests.post("https://events.example.com", json={}, timeout=3)
    except:  # error: BG102
        pass


def send_now():
    threading.Thread(target=send_events).start()
