# Not flagged: not loop that always raises.
from celery import shared_task

@shared_task
def refuse():
    while True:
        raise RuntimeError("disabled")
