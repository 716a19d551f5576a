# Flagged: the limit caught in a tuple by a handler that lets the task carry on after the try.
# Not flagged: the same handler when it returns: the task ends there, so the soft limit stopped
# the work (as Celery's cleanup idiom does), wherever the try stands in the task.
import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

log = logging.getLogger(__name__)


@shared_task(soft_time_limit=30)
def sync():
    try:
        work()
    except (ValueError, SoftTimeLimitExceeded):  # error: BG106
        log.warning("sync failed")
    mark_synced()


@shared_task(soft_time_limit=30)
def sync_or_stop():
    try:
        work()
    except (ValueError, SoftTimeLimitExceeded):
        return None
    mark_synced()
