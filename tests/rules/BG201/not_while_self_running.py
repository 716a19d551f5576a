# Not flagged: not while self running.
import time
from celery import shared_task

class Follower:
    running = True

    def run(self):
        while self.running:
            time.sleep(1)

@shared_task
def follow():
    Follower().run()
