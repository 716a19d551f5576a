import redis
from apscheduler.schedulers.background import BackgroundScheduler

scheduler = BackgroundScheduler()
r = redis.Redis()

@scheduler.scheduled_job("interval", minutes=5)
def send_invoices():
    lock = r.lock("send-invoices", timeout=600, blocking=False)
    if not lock.acquire():
        return
    try:
        return 1
    finally:
        lock.release()
