import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

from django.core.cache import cache

@app.task
def sweep():
    taken = cache.add("a", 1)  # error: BG501
