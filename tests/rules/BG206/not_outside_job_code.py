# Not flagged: not outside job code (a command-line script's waits on this machine).
import queue
import time

import requests

jobs = queue.Queue(maxsize=10)

def cli(export_id):
    jobs.get()
    while not requests.get("https://example.com", timeout=5).ok:
        time.sleep(5)

if __name__ == "__main__":
    cli(1)
