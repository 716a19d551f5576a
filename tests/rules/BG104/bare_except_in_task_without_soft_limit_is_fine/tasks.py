from celery import shared_task


@shared_task
def rebuild_report(report_id):
    try:
        render(report_id)
    except:
        log("render failed")
