# Not flagged: app setting of none is no limit.
from celery import Celery

app = Celery()
app.conf.task_soft_time_limit = None

@app.task
def sync():
    try:
        work()
    except Exception:
        pass
