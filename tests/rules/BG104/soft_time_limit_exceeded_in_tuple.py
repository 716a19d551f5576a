# Flagged: soft time limit exceeded in tuple.
from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

@shared_task(soft_time_limit=30)
def sync():
    try:
        work()
    except (ValueError, SoftTimeLimitExceeded):  # error: BG104
        return None
    mark_synced()
