# Flagged: bare except in app task.
from celery import Celery

app = Celery()

@app.task
def sync():
    try:
        work()
    except:  # error: BG102
        pass
