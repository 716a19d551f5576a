# file: digest/tasks.py
import logging

from celery.exceptions import SoftTimeLimitExceeded as SoftLimit

from digest.celery import app
from digest.mail import send_digest

log = logging.getLogger(__name__)


@app.task
def send_weekly_digest(user_ids: list[int]) -> None:
    for user_id in user_ids:
        try:
            send_digest(user_id)
        except SoftLimit:
            log.warning("out of time at user %s", user_id)
        except Exception:
            log.exception("digest failed for user %s", user_id)


@app.task
def send_one(user_id: int) -> None:
    try:
        send_digest(user_id)
    except SoftLimit:
        return  # not flagged: the task ends here, so the soft limit stopped the work
