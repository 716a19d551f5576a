import redis
from celery import Celery

app = Celery("proj")
r = redis.Redis()

app.conf.task_time_limit = 600

@app.task
def sweep():
    with r.lock("a", timeout=60):  # error: BG501
        pass
