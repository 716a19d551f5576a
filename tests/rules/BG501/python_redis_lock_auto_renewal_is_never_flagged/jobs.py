import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

import redis_lock

@app.task
def sweep():
    with redis_lock.Lock(r, "a", expire=5, auto_renewal=True):
        pass
