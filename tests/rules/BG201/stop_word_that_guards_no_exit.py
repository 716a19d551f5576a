# Flagged: stop word that guards no exit.
# ``cancel_stale_orders()`` says "cancel" but is work, not a check: nothing leaves the loop.
import time
from celery import shared_task

def cancel_stale_orders():
    return 0

@shared_task
def reaper():
    while True:  # error: BG201
        cancel_stale_orders()
        time.sleep(60)
