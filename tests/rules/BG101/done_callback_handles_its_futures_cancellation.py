# Not flagged: a done-callback reads its own future's outcome and records the cancellation as
# such, then ends: nothing counts the cancelled work as a result.
from concurrent.futures import CancelledError, ThreadPoolExecutor


class Worker:
    def __init__(self, storage):
        self.storage = storage
        self.pool = ThreadPoolExecutor(max_workers=2)
        self.jobs = {}

    def start(self, job):
        future = self.pool.submit(job.run)
        self.jobs[future] = job
        future.add_done_callback(self.handle_finished_future)

    def handle_finished_future(self, future):
        try:
            job = self.jobs.pop(future)
            try:
                future.result()
            except CancelledError:
                self.storage.mark_job_as_canceled(job.job_id)
        except KeyError:
            pass
