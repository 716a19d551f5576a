from huey.contrib.djhuey import db_task, lock_task

@db_task()
def sweep():
    with lock_task("sweep", ttl=30):  # error: BG501
        pass
