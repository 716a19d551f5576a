# Not flagged: hands over to arq run worker.
from concurrent.futures import ThreadPoolExecutor
from arq import run_worker

class WorkerSettings:
    functions = []

if __name__ == "__main__":
    ThreadPoolExecutor().submit(print)  # error: BG605
    run_worker(WorkerSettings)
