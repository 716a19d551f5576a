from celery import Celery
from celery_once import QueueOnce

app = Celery("proj")
app.conf.ONCE = {"backend": "celery_once.backends.Redis", "settings": {"default_timeout": 60}}

@app.task(base=QueueOnce)  # error: BG501
def sweep():
    pass
