# Not flagged: the loop condition compares the project's own clock (project_clock.now, chosen per
# platform, or a function returning a clock reading): the condition is the deadline.
# Flagged: a project function of the same shape that is not a clock (a counter) bounds nothing.
import time

from celery import shared_task

from project_clock import items_processed, steady_seconds, now


@shared_task
def wait_for_export(api, export_id):
    start = now()
    while now() < start + 30.0 and api.status(export_id) != "done":
        time.sleep(1.0)
    begun = steady_seconds()
    while steady_seconds() - begun < 60 and api.status(export_id) != "done":
        time.sleep(1.0)


@shared_task
def wait_for_batch(api, stats):
    start = items_processed(stats)
    while items_processed(stats) < start + 100:  # error: BG206
        time.sleep(1.0)
