# Flagged: except star exception.
from celery import shared_task

@shared_task(soft_time_limit=30)
def sync():
    try:
        work()
    except* Exception:  # error: BG106
        pass
    mark_synced()
