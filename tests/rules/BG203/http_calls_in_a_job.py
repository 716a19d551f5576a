# Flagged: calls to another service with no time bound in a job: httpx with timeout=None, a Celery
# result awaited inside a task. Not flagged: httpx's default timeout, a result with a timeout.
import httpx
from celery import shared_task

URL = "https://rates.example.com/today"


@shared_task
def refresh_rates():
    httpx.get(URL, timeout=None)  # error: BG203
    httpx.get(URL)  # httpx times out after 5 s by default
    return URL


@shared_task
def report():
    rates = refresh_rates.delay().get()  # error: BG203
    again = refresh_rates.delay().get(timeout=30)
    return rates, again
