from huey import RedisHuey

huey = RedisHuey("proj")

@huey.task()
def sweep():
    with huey.lock_task("sweep", ttl=30):  # error: BG501
        pass

@huey.periodic_task(lambda dt: True)
@huey.lock_task("report", ttl=45)  # error: BG501
def report():
    pass
