import redis
from apscheduler.schedulers.blocking import BlockingScheduler

r = redis.Redis()
sched = BlockingScheduler()

@sched.scheduled_job("interval", minutes=5, id="heartbeat")
def beat():
    with r.lock("beat", timeout=30):  # error: BG501
        pass
