import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

from redis.lock import Lock

@app.task
def sweep():
    r.lock("a", 30)  # error: BG501
    Lock(r, "b", 45)  # error: BG501
    Lock(r, "c", timeout=45.5)  # error: BG501
