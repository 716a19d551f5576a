# Not flagged: a zero sleep (`time.sleep(0)`, `await asyncio.sleep(0)`) in a reading loop hands the
# CPU or the event loop to others and waits for nothing; it is not a poll. Flagged: the same loop
# when it waits between checks.
import time

from celery import shared_task

YIELD = 0


@shared_task
def read_body(stream, pending):
    while pending > 0:
        chunk = stream.read(min(pending, 65536))
        pending -= len(chunk)
        time.sleep(0)
        time.sleep(secs=YIELD)


@shared_task
def wait_for_body(stream, pending):
    while pending > 0:  # error: BG206
        pending -= len(stream.buffered())
        time.sleep(0.5)
