# Not flagged: not polling loop with attempt counter.
import time
from celery import shared_task

@shared_task
def wait_for_export(api, export_id):
    attempts = 0
    while api.status(export_id) != "done" and attempts < 60:
        attempts += 1
        time.sleep(5)
    return api.download(export_id)
