import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

from datetime import timedelta

@app.task
def sweep():
    taken = r.set("a", 1, nx=True, ex=30)  # error: BG501
    taken = r.set("b", 1, nx=True, px=30000)  # error: BG501
    taken = r.set("c", 1, nx=True, ex=timedelta(minutes=1))  # error: BG501
    taken = r.set("d", 1, nx=True, px=timedelta(seconds=90))  # error: BG501
    r.set("e", 1, nx=True, px=150_000)
    r.set("f", 1, nx=True, ex=150)
