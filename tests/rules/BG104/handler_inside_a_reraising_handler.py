# Not flagged: a handler that guards the cleanup of an except clause that always re-raises (saving a
# retry state after a failed send): whatever it swallows, the outer exception goes on and the task
# ends there.
# Flagged: the same guard inside an except clause that carries on.
import logging

from celery import shared_task

log = logging.getLogger(__name__)


@shared_task(soft_time_limit=300)
def transmit(item_id):
    try:
        send(item_id)
    except Exception:
        try:
            mark_for_retry(item_id)
        except Exception:
            log.error("could not mark %s for retry", item_id)
        raise
    mark_sent(item_id)


@shared_task(soft_time_limit=300)
def transmit_all(item_ids):
    for item_id in item_ids:
        try:
            send(item_id)
        except ConnectionError:
            try:
                mark_for_retry(item_id)
            except Exception:  # error: BG104
                log.error("could not mark %s for retry", item_id)
