# Not flagged: not should exit flag before break.
import time
from celery import shared_task

class Follower:
    should_exit = False

    def run(self):
        while True:
            if self.should_exit:
                break
            time.sleep(1)

@shared_task
def follow():
    Follower().run()
