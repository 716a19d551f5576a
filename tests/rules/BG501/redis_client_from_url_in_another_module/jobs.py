from celery import Celery
from clients import r

app = Celery("proj")

@app.task
def sweep():
    with r.lock("sweep", timeout=10):  # error: BG501
        pass
