import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

import redis_lock

@app.task
def sweep():
    with redis_lock.Lock(r, "a", expire=60):  # error: BG501
        pass
    with redis_lock.Lock(r, "b", 30):  # error: BG501
        pass
    with redis_lock.Lock(r, "c", expire=600):
        pass
