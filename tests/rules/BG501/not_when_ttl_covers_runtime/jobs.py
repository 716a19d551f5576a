import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

@app.task(time_limit=300)
def sweep():
    with r.lock("a", timeout=300):
        pass
    with r.lock("b", timeout=600):
        pass
