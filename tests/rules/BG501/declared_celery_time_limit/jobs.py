import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

@app.task(time_limit=90)
def hard():
    with r.lock("a", timeout=60):  # error: BG501
        pass

@app.task(soft_time_limit=120)
def soft():
    with r.lock("b", timeout=60):  # error: BG501
        pass

@app.task(time_limit=30)
def fits():
    with r.lock("c", timeout=60):
        pass
