# Flagged: class attribute and asyncio scheduler.
from concurrent.futures import ThreadPoolExecutor
from apscheduler.schedulers.asyncio import AsyncIOScheduler

class Service:
    pool = ThreadPoolExecutor()  # error: BG401

    def handle(self, job):
        self.pool.submit(job)  # error: BG602

scheduler = AsyncIOScheduler()  # error: BG401
scheduler.start()
