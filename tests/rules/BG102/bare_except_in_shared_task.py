# Flagged: bare except in shared task.
from celery import shared_task

@shared_task
def sync():
    try:
        work()
    except:  # error: BG102
        pass
