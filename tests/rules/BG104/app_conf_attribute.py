# Flagged: app conf attribute.
from celery import Celery

app = Celery()
app.conf.task_soft_time_limit = 30

@app.task
def sync():
    try:
        work()
    except Exception:  # error: BG104
        print("failed")
    mark_synced()
