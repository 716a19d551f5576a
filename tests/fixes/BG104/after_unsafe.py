# file: digest/tasks.py
"""The weekly digest."""
import logging

from digest.celery import app
from digest.mail import send_digest, send_summary
from celery.exceptions import SoftTimeLimitExceeded

log = logging.getLogger(__name__)


@app.task
def send_weekly_digest(user_ids: list[int]) -> None:
    for user_id in user_ids:
        try:
            send_digest(user_id)
        except SoftTimeLimitExceeded:
            raise
        # a comment above the handler stays with it
        except Exception:
            log.exception("digest failed for user %s", user_id)
            continue


@app.task
def send_weekly_summary(team_id: int) -> None:
    try:
        send_summary(team_id)
    except Exception as error:  # noqa: BG104 - the summary is best-effort
        log.warning("summary failed: %s", error)
