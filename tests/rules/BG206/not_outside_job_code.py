# Not flagged: not outside job code.
import queue
import time
import requests
from concurrent.futures import ThreadPoolExecutor

pool = ThreadPoolExecutor(max_workers=2)
jobs = queue.Queue(maxsize=10)

def work():
    return 1

def cli(export_id):
    requests.get("https://example.com")
    jobs.get()
    while not requests.get("https://example.com", timeout=5).ok:
        time.sleep(5)

if __name__ == "__main__":
    cli(1)
