# Flagged: message names task and option.
from celery import Celery

app = Celery()

@app.task(soft_time_limit=30, name="shop.sync")
def sync():
    try:
        work()
    except Exception:  # error: BG106
        print("failed")
    mark_synced()
