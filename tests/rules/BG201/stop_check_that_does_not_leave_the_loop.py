# Flagged: stop check that does not leave the loop.
# The event is tested, but the loop carries on whatever it says: still endless.
import logging
import threading
import time
from celery import shared_task

stop = threading.Event()
log = logging.getLogger(__name__)

@shared_task
def follow():
    while True:  # error: BG201
        if stop.is_set():
            log.info("stop requested")
        time.sleep(1)
