from celery import shared_task

@shared_task
def sync_orders():
    try:
        work()
    except Exception:  # error: BG106
        print("failed")
    mark_synced()
