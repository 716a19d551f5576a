import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

from dramatiq.rate_limits import ConcurrentRateLimiter
from dramatiq.rate_limits.backends import RedisBackend

backend = RedisBackend()

@app.task
def sweep():
    with ConcurrentRateLimiter(backend, "a", limit=1, ttl=60_000).acquire():  # error: BG501
        pass
    with ConcurrentRateLimiter(backend, "b").acquire():
        pass
