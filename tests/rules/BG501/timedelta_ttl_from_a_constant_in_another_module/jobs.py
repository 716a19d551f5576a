import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

from settings import LOCK_TD

@app.task
def sweep():
    taken = r.set("d", 1, nx=True, ex=LOCK_TD)  # error: BG501
