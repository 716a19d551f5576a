import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

@app.task
def nightly():
    with r.lock("reports:nightly", timeout=60):  # error: BG501
        pass
