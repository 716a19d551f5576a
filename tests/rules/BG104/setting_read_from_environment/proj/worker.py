import os

from celery import Celery

app = Celery()
app.conf.task_soft_time_limit = int(os.environ["SOFT_LIMIT"])

@app.task
def sync():
    try:
        work()
    except Exception:  # error: BG106
        pass
    mark_synced()
