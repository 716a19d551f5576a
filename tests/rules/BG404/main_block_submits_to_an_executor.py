# Flagged: main block submits to an executor.
from concurrent.futures import ThreadPoolExecutor

if __name__ == "__main__":  # error: BG404
    pool = ThreadPoolExecutor()
    pool.submit(outbox.commit)  # error: BG605
    outbox.commit()
