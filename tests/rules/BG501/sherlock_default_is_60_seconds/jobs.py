import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

import sherlock
from sherlock.lock import RedisLock

@app.task
def sweep():
    with sherlock.Lock("a"):  # error: BG501
        pass
    with RedisLock("b", client=r, expire=300):
        pass
    with sherlock.RedisLock("c", client=r, expire=30):  # error: BG501
        pass
