# Not flagged: except other exception is fine.
from celery import shared_task

@shared_task(soft_time_limit=30)
def sync():
    try:
        work()
    except ValueError:
        print("bad value")
