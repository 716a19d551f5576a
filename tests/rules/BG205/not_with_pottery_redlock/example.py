from apscheduler.schedulers.background import BackgroundScheduler
from pottery import Redlock
from redis import Redis

scheduler = BackgroundScheduler()
redis = Redis()

@scheduler.scheduled_job("interval", minutes=5)
def send_invoices():
    with Redlock(key="send-invoices", masters={redis}, auto_release_time=600):
        return 1
