# Silent: the handler ends the task. Once it is done the task returns, so the soft limit stopped the
# work: Celery's own cleanup idiom. Only work that carries on after the handler runs into the hard
# limit (the loop and the code after the try below are flagged).
import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

log = logging.getLogger(__name__)


@shared_task(soft_time_limit=60)
def cleanup_in_a_hurry():
    try:
        work()
    except SoftTimeLimitExceeded:
        cleanup()


@shared_task(soft_time_limit=60)
def record_the_failure(command_id):
    command = load(command_id)
    with lock(command_id):
        try:
            command.execute()
        except Exception:
            command.status = "failed"
            command.save()
            return False
    return True


@shared_task(soft_time_limit=60)
def only_a_return_follows(batch_id):
    if batch_id:
        try:
            process(batch_id)
        except SoftTimeLimitExceeded:
            log.error("batch %s stopped at its soft limit", batch_id)
    return None


@shared_task(soft_time_limit=60)
def goes_on_in_a_loop(ids):
    for item in ids:
        try:
            process(item)
        except Exception:  # error: BG104
            log.exception("item %s failed", item)


@shared_task(soft_time_limit=60)
def goes_on_after_the_try(batch_id):
    try:
        process(batch_id)
    except SoftTimeLimitExceeded:  # error: BG106
        log.error("batch %s stopped at its soft limit", batch_id)
    publish_report(batch_id)
