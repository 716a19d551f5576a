from celery import shared_task

from proj import helpers

@shared_task
def refresh():
    helpers.fetch_all()
