# Flagged (BG206; not BG203, which is the waits for another service): waits in a job for work on
# this machine, with no time bound: a thread, a queue, a future, a child process.
import queue
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor

from celery import shared_task

pool = ThreadPoolExecutor(max_workers=2)
results = queue.Queue(maxsize=10)


def convert(path):
    return path


@shared_task
def export(path):
    worker = threading.Thread(target=convert, args=(path,))
    worker.start()
    worker.join()  # error: BG206
    pool.submit(convert, path).result()  # error: BG206
    subprocess.run(["pdftk", path, "output", "out.pdf"])  # error: BG206
    results.get()  # error: BG206
    subprocess.run(["pdftk", path, "output", "out2.pdf"], timeout=60)  # bounded: not flagged
