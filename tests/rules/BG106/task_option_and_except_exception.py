# Flagged: task option and except exception.
import logging
from celery import Celery

app = Celery()
log = logging.getLogger(__name__)

@app.task(soft_time_limit=30)
def sync():
    try:
        work()
    except Exception:  # error: BG106
        log.exception("sync failed")
    mark_synced()
