# Flagged: in celery task.
from celery import shared_task

@shared_task
def sync():
    try:
        work()
    except SystemExit:  # error: BG101
        pass
