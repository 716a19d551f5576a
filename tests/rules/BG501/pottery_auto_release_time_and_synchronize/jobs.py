import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

from pottery import Redlock, synchronize

@app.task
def sweep():
    Redlock(key="a", masters={r}, auto_release_time=20)  # error: BG501
    Redlock(key="b", masters={r}, auto_release_time=60)

@app.task
@synchronize(key="c", masters={r}, auto_release_time=15)  # error: BG501
def other():
    pass
