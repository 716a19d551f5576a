# Not flagged: Celery and RQ task code. A Celery worker's warm shutdown (the SIGTERM a deploy
# sends its main process) lets running tasks finish and raises nothing in them; an RQ work horse
# ignores SIGINT and dies of SIGTERM. No stop arrives here as an exception.
from celery import Celery, Task, shared_task
from rq import Queue

app = Celery("proj")


@app.task(bind=True)
def sync(self):
    try:
        work()
    except BaseException:
        self.log("failed")


@shared_task
def refresh():
    try:
        work()
    except:
        pass


class Sync(Task):
    def run(self):
        try:
            work()
        except BaseException:
            pass


def rebuild_index():
    try:
        work()
    except:
        pass


Queue().enqueue(rebuild_index)
