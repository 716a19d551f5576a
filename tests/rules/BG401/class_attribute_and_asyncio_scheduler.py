# Flagged: a pool kept in a class attribute and used through self.
# Not flagged: an APScheduler scheduler nobody shuts down: exit loses no work a shutdown() would keep
# (3.x: its thread is a daemon, running jobs finish in its concurrent.futures executor).
from multiprocessing.pool import ThreadPool
from apscheduler.schedulers.asyncio import AsyncIOScheduler

class Service:
    crew = ThreadPool(4)  # error: BG401

    def handle(self, job):
        self.crew.apply_async(job)

scheduler = AsyncIOScheduler()
scheduler.start()
