# Flagged: a bare except and an except BaseException in a task with a soft time limit catch
# SoftTimeLimitExceeded as surely as except Exception does.
from celery import shared_task


@shared_task(soft_time_limit=120)
def rebuild_report(report_id):
    try:
        render(report_id)
    except:  # error: BG106
        log("render failed")
    try:
        upload(report_id)
    except BaseException:  # error: BG106
        log("upload failed")
    mark_synced()
