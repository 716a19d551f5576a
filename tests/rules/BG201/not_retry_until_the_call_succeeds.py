# Not flagged: not retry until the call succeeds.
# ``while True: try: ...; return except: ...``: the loop ends when the work succeeds.
import logging
from celery import shared_task

log = logging.getLogger(__name__)

@shared_task
def push(client, payload):
    while True:
        try:
            client.push(payload, timeout=10)
            return
        except ConnectionError:
            log.warning("push failed, retrying")
