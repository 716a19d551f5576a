# Flagged: break only leaves an inner loop.
from celery import shared_task

@shared_task
def relay(batches):
    while True:  # error: BG201
        for batch in batches.fetch():
            if not batch:
                break
            batches.send(batch)
