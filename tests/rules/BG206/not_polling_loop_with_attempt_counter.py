# Not flagged: not polling loop with attempt counter.
import time
from celery import shared_task

@shared_task
def wait_for_export(api, export_id):
    attempts = 0
    while api.status(export_id) != "done" and attempts < 60:
        attempts += 1
        time.sleep(5)
    return api.download(export_id)


# Not flagged: a counter compared with a number and stepped towards it in the loop's body ends
# the loop after that many rounds, whatever it is called.
@shared_task
def wait_for_database(db):
    n = 0
    while n < 24:
        if db.ready():
            return True
        time.sleep(5)
        n += 1
    return False


@shared_task
def drain(api, export_id):
    left = 10
    while api.busy(export_id) and left > 0:
        time.sleep(1)
        left -= 1


# Flagged: the counter is never stepped towards its bound.
@shared_task
def wait_forever(db):
    n = 0
    while n < 24:  # error: BG206
        if db.ready():
            n = 0
        time.sleep(5)
