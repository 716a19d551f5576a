# Flagged: sleep polling loop without deadline.
import time
from celery import shared_task

@shared_task
def wait_for_export(api, export_id):
    while api.status(export_id) != "done":  # error: BG206
        time.sleep(5)
    return api.download(export_id)
