import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

@app.task
def sweep():
    with r.lock("a", timeout=100):  # error: BG501
        pass
    with r.lock("b", timeout=130):
        pass
