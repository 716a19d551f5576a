import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

from dramatiq.rate_limits import ConcurrentRateLimiter

@app.task
def sweep():
    ConcurrentRateLimiter(None, "b")  # error: BG501
