from celery import Celery
from celery_once import QueueOnce

app = Celery("proj")

@app.task(base=QueueOnce, once={"timeout": 60})  # error: BG501
def short():
    pass

@app.task(base=QueueOnce)  # error: BG501
def long():
    pass

@app.task(base=QueueOnce)
def fine():
    pass
