# Flagged: base exception in app task with options.
from celery import Celery

app = Celery("proj")

@app.task(bind=True)
def sync(self):
    try:
        work()
    except BaseException:  # error: BG102
        self.log("failed")
