import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

from settings import LOCK_TD

@app.task
def sweep():
    r.set("d", 1, nx=True, ex=LOCK_TD)  # error: BG501
