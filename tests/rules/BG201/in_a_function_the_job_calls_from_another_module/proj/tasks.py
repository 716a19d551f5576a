from celery import shared_task
from proj.feeds import poll_forever

@shared_task
def import_feed(url):
    poll_forever(url)
