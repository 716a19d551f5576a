from celery import Celery
from clients import LOCK_KEY, r

app = Celery("proj")

@app.task
def nightly():
    with r.lock(LOCK_KEY, timeout=600):
        pass
