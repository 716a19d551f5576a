# Flagged (BG104): the limit caught inside a loop of the task by a handler that logs it and goes on
# to the next item (falling through or `continue`): every item left runs into the hard limit.
# BG106, not BG104: the same handler when it leaves the loop with `break` (the work after the loop
# carries on, but no loop goes round again), and one outside any loop.
# Silent: a handler in the loop that re-raises the limit first.
import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

log = logging.getLogger(__name__)


@shared_task(soft_time_limit=600)
def sync_contracts(corporation_ids):
    for corporation_id in corporation_ids:
        try:
            fetch_contracts(corporation_id)
        except Exception:  # error: BG104
            log.exception("contract sync failed for %s", corporation_id)


@shared_task(soft_time_limit=600)
def validate_orders(order_ids):
    while order_ids:
        order_id = order_ids.pop()
        try:
            validate(order_id)
        except Exception:  # error: BG104
            continue
        notify(order_id)


@shared_task(soft_time_limit=600)
def import_until_failure(batches):
    for batch in batches:
        try:
            import_batch(batch)
        except Exception:  # error: BG106
            log.exception("import stopped at %s", batch)
            break
    mark_imported()


@shared_task(soft_time_limit=600)
def refresh_prices(item_ids):
    try:
        settings = load_settings()
    except Exception:  # error: BG106
        settings = None
    for item_id in item_ids:
        try:
            refresh(item_id, settings)
        except SoftTimeLimitExceeded:
            raise
        except Exception:
            log.exception("refresh failed for %s", item_id)
