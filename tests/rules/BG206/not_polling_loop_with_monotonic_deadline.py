# Not flagged: not polling loop with monotonic deadline.
import time
from celery import shared_task

@shared_task
def wait_for_export(api, export_id):
    deadline = time.monotonic() + 300
    while api.status(export_id) != "done":
        if time.monotonic() > deadline:
            raise TimeoutError(export_id)
        time.sleep(5)
    return api.download(export_id)
