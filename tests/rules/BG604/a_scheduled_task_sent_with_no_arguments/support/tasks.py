from support.celery import app
from support.models import Status


@app.task
def status_update(only=None):
    for status in Status.objects.all():
        status.refresh()


@app.task
def recount():
    Status.objects.update(counted=True)
