import threading
from apscheduler.schedulers.background import BackgroundScheduler

scheduler = BackgroundScheduler()
guard = threading.Lock()

@scheduler.scheduled_job("interval", minutes=5)
def send_invoices():  # error: BG205
    with guard:
        return 1
