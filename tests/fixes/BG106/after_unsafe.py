# file: digest/tasks.py
import logging

from digest.celery import app
from digest.mail import send_digest, send_summary
from celery.exceptions import SoftTimeLimitExceeded

log = logging.getLogger(__name__)


@app.task
def send_one(user_id: int) -> None:
    try:
        send_digest(user_id)
    except SoftTimeLimitExceeded:
        raise
    except Exception:
        log.exception("digest failed for user %s", user_id)
    log.info("digest step done for user %s", user_id)


@app.task
def send_summary_once(team_id: int) -> None:
    try:
        send_summary(team_id)
    except Exception:
        log.warning("summary failed")
        return  # not flagged: the task ends here, so the soft limit stopped the work
    log.info("summary step done")
