# Flagged: task class with soft time limit attribute.
from celery import Task

class Sync(Task):
    soft_time_limit = 30

    def run(self):
        try:
            work()
        except Exception:  # error: BG106
            pass
        mark_synced()
