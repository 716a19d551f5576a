# Not flagged: same waits outside shutdown paths.
import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

EXECUTOR = ThreadPoolExecutor(max_workers=4)
SCHEDULER = BackgroundScheduler()
WORKER = threading.Thread(target=print)
TASKS = set()

def batch():
    EXECUTOR.shutdown(wait=True)
    WORKER.join()
    SCHEDULER.shutdown()

async def run_all():
    await asyncio.gather(*TASKS)
