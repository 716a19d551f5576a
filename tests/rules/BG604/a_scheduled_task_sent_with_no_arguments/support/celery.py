from celery import Celery

app = Celery("support")


@app.on_after_finalize.connect
def setup_periodic_tasks(sender, **kwargs):
    from support.tasks import status_update

    sender.add_periodic_task(86400, status_update.s(), name="status-update")
