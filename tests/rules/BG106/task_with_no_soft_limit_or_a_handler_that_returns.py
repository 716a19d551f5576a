# Silent: a task with no soft time limit (nothing raises SoftTimeLimitExceeded in it), and a
# handler that returns: the task ends there, so the limit stopped the work.
# BG104, not BG106: the handler inside a loop that goes on to its next item.
import logging

from celery import shared_task

log = logging.getLogger(__name__)


@shared_task
def export_without_limit(report_id):
    try:
        render(report_id)
    except Exception:
        log.exception("export failed")
    mark_done(report_id)


@shared_task(soft_time_limit=120)
def export_or_stop(report_id):
    try:
        rows = render(report_id)
    except Exception:
        log.exception("export failed")
        return
    upload(rows)


@shared_task(soft_time_limit=120)
def export_all(report_ids):
    for report_id in report_ids:
        try:
            render(report_id)
        except Exception:  # error: BG104
            log.exception("export of %s failed", report_id)
