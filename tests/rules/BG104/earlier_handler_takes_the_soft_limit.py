# Not flagged: earlier handler takes the soft limit.
from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

@shared_task(soft_time_limit=30)
def sync():
    try:
        work()
    except SoftTimeLimitExceeded:
        raise
    except Exception:
        print("failed")
