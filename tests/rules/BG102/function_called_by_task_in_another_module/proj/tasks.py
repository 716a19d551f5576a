from celery import shared_task

from proj.helpers import fetch_all

@shared_task
def refresh():
    fetch_all()
