from support.celery import app
from support.models import Status


@app.task
def status_update(only=None):
    for status in Status.objects.all():
        status.refresh()


@app.task
def recount():
    Status.objects.update(counted=True)


def schedule_status_update():
    status_update.apply_async(countdown=10)


def schedule_status_update_for(user_id):
    status_update.apply_async(args=(user_id,), countdown=10)
