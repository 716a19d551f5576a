# Flagged: break in finally in shared task.
from celery import shared_task

@shared_task
def sync(items):
    for item in items:
        try:
            work(item)
        finally:
            break  # error: BG103
