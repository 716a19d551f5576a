# Not flagged: not retry once.
# Every pass ends on the first one: it returns, or re-raises.
import logging
from celery import shared_task

log = logging.getLogger(__name__)

@shared_task
def fetch_once(client):
    while True:
        try:
            return client.fetch()
        except TimeoutError:
            log.warning("fetch timed out")
            raise
