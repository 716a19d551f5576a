from apscheduler.schedulers.blocking import BlockingScheduler
from proj import jobs

scheduler = BlockingScheduler()  # error: BG401
scheduler.add_job(jobs.follow_feed, "cron", hour=3)
