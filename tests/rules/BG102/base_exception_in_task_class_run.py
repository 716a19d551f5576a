# Flagged: base exception in task class run.
from celery import Task

class Sync(Task):
    def run(self):
        try:
            work()
        except BaseException:  # error: BG102
            pass
