import requests
from celery import shared_task
from django.conf import settings

USE_MIRROR = False


@shared_task
def sync_partners():
    # Not flagged: SYNC_PARTNERS is False in the settings (star-imported from base_settings).
    if settings.SYNC_PARTNERS:
        requests.post("https://partners.example.com/sync")


@shared_task
def load_rates():
    # Not flagged: the task leaves first, since LOAD_RATES is False.
    if settings.DEBUG or not settings.LOAD_RATES:
        return
    requests.get("https://rates.example.com/today")


@shared_task
def fetch_catalog():
    # Not flagged: a module constant that nothing binds again turns the mirror off.
    if USE_MIRROR:
        return requests.get("https://mirror.example.com/catalog")
    return requests.get("https://catalog.example.com/catalog", timeout=10)


@shared_task
def report_usage():
    # DEBUG is the deployment's to set (True in development, False when deployed): its value in
    # the settings file rules nothing out.
    if settings.DEBUG:
        return
    requests.post("https://usage.example.com/report")  # error: BG203


@shared_task
def notify(flag_enabled):
    # A setting no settings module binds, and a parameter: neither value is known.
    if settings.NOTIFY_PARTNERS or flag_enabled:
        requests.post("https://partners.example.com/notify")  # error: BG203
