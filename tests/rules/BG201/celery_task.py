# Flagged: celery task.
from celery import Celery

app = Celery("shop")

@app.task
def consume_events(stream):
    while 1:  # error: BG201
        stream.read_one()
