from apscheduler.schedulers.background import BackgroundScheduler
from django.core.cache import cache

scheduler = BackgroundScheduler()

@scheduler.scheduled_job("interval", minutes=5)
def send_invoices():
    if not cache.add("send-invoices-lock", "1", timeout=600):
        return
    return 1
