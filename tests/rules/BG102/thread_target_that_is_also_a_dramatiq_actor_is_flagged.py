# Flagged: the same function is also a Dramatiq actor, which receives the worker's
# TimeLimitExceeded and Shutdown as exceptions.
import threading

import dramatiq
import requests


@dramatiq.actor
def send_events():
    try:
        requests.post("https://events.example.com", json={}, timeout=3)
    except:  # error: BG102
        pass


def send_now():
    threading.Thread(target=send_events).start()
