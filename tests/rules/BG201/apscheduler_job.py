# Flagged: apscheduler job.
import time
from apscheduler.schedulers.background import BackgroundScheduler

scheduler = BackgroundScheduler()

@scheduler.scheduled_job("interval", minutes=1)
def sync_rates():
    while True:  # error: BG201
        time.sleep(5)
