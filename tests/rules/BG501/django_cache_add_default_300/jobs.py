import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

from django.core.cache import cache

@app.task
def sweep():
    taken = cache.add("a", 1)  # error: BG501
    taken = cache.add("b", 1, 60)  # error: BG501
    cache.add("c", 1, timeout=900)
