import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

import os
from datetime import timedelta

def ttl_for(job):
    return 30

@app.task(time_limit=900)
def sweep(ttl):
    r.lock("a", timeout=ttl)
    r.lock("b", timeout=int(os.environ["LOCK_TTL"]))
    r.lock("c", timeout=ttl_for("sweep"))
    r.set("d", 1, nx=True, exat=1764500000)
