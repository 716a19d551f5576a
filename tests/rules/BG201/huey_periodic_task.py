# Flagged: huey periodic task.
import time
from huey import RedisHuey, crontab

huey = RedisHuey("shop")

@huey.periodic_task(crontab(minute="*/5"))
def refresh_stock():
    while True:  # error: BG201
        time.sleep(30)
