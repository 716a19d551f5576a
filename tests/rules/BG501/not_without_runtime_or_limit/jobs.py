import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

@app.task
def sweep():
    with r.lock("a", timeout=1):
        pass
