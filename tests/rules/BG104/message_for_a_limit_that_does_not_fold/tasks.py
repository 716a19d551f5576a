from celery import shared_task
from django.conf import settings

@shared_task(soft_time_limit=settings.SYNC_SOFT_LIMIT)
def sync():
    try:
        work()
    except Exception:  # error: BG106
        pass
    mark_synced()
