# Flagged: app conf update.
from celery import Celery

app = Celery()
app.conf.update(task_soft_time_limit=30)

@app.task
def sync():
    try:
        work()
    except Exception:  # error: BG106
        print("failed")
    mark_synced()
