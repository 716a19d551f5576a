# Not flagged: function that is not a task is fine.
from celery import Celery

app = Celery()
app.conf.task_soft_time_limit = 30

def helper():
    try:
        work()
    except Exception:
        print("failed")
