from celery import Celery
import locking

app = Celery("proj")

@app.task(name="reports.build")
def build():
    locking.guarded()
