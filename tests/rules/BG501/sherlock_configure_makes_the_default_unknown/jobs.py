import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

import sherlock

sherlock.configure(expire=600)

@app.task
def sweep():
    with sherlock.Lock("a"):
        pass
