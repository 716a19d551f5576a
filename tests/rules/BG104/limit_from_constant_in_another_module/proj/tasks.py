from celery import shared_task

from proj.limits import SOFT

@shared_task(soft_time_limit=SOFT)
def sync_orders():
    try:
        work()
    except Exception:  # error: BG106
        print("failed")
    mark_synced()
