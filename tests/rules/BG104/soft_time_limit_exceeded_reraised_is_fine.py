# Not flagged: soft time limit exceeded reraised is fine.
from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

@shared_task(soft_time_limit=30)
def sync():
    try:
        work()
    except SoftTimeLimitExceeded:
        cleanup()
        raise
