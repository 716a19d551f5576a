# Flagged: schedule library job.
import time
import schedule

def watch_inbox():
    while True:  # error: BG201
        time.sleep(1)

schedule.every(10).minutes.do(watch_inbox)
