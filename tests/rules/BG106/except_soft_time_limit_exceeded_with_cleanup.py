# Flagged: except soft time limit exceeded with cleanup.
from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

@shared_task(soft_time_limit=30)
def sync():
    try:
        work()
    except SoftTimeLimitExceeded:  # error: BG106
        cleanup()
    mark_synced()
