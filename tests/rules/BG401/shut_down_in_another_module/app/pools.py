import multiprocessing
from concurrent.futures import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

EXECUTOR = ThreadPoolExecutor(max_workers=4)
POOL = multiprocessing.Pool(4)
SCHEDULER = BackgroundScheduler()
