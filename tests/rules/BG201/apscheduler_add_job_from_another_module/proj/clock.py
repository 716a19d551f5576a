from apscheduler.schedulers.blocking import BlockingScheduler
from proj import jobs

scheduler = BlockingScheduler()
scheduler.add_job(jobs.follow_feed, "cron", hour=3)
