# Not flagged: not drain loop.
from celery import shared_task

@shared_task
def drain(outbox):
    while True:
        message = outbox.pop()
        if message is None:
            break
        message.send()
