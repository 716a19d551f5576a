# Flagged: task option of none falls back to app setting.
from celery import Celery

app = Celery()
app.conf.task_soft_time_limit = 30

@app.task(soft_time_limit=None)
def sync():
    try:
        work()
    except Exception:  # error: BG106
        pass
    mark_synced()
