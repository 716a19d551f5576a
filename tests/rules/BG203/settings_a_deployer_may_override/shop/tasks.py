import requests
from celery import shared_task
from django.conf import settings


@shared_task
def sync_partners():
    if settings.SYNC_PARTNERS:
        requests.post("https://partners.example.com/sync")  # error: BG203
