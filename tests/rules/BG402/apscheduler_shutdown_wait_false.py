# Flagged: apscheduler shutdown wait false.
from apscheduler.schedulers.background import BackgroundScheduler

SCHEDULER = BackgroundScheduler()

def stop():
    SCHEDULER.shutdown(wait=False)  # error: BG402
