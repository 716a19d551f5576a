# Flagged: return in finally in celery task.
from celery import Celery

app = Celery()

@app.task
def sync():
    try:
        work()
    finally:
        return "done"  # error: BG103
