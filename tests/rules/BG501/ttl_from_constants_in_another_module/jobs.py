import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

import settings
from settings import LOCK_TTL, LOCK_TTL_MS

@app.task
def sweep():
    r.lock("a", timeout=LOCK_TTL)  # error: BG501
    r.lock("b", timeout=settings.LOCK_TTL * 2)
    r.lock("c", timeout=settings.LOCK_TTL)  # error: BG501
    taken = r.set("d", 1, nx=True, px=LOCK_TTL_MS)  # error: BG501
