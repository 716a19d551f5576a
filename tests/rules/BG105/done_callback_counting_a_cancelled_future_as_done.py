# Flagged: a done-callback that swallows its future's cancellation and then goes on to record the
# job as completed; and a method that reads a future it was not handed as a done-callback.
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
        job = self.jobs.pop(future)
        try:
            future.result()
        except CancelledError:  # error: BG105
            self.storage.note(job.job_id)
        self.storage.mark_job_as_done(job.job_id)

    def collect(self, future):
        try:
            future.result()
        except CancelledError:  # error: BG105
            self.storage.note(future)
