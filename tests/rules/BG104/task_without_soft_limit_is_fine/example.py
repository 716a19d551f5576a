# Not flagged: task without soft limit is fine.
from celery import shared_task

@shared_task(time_limit=60)
def sync():
    try:
        work()
    except Exception:
        print("failed")
