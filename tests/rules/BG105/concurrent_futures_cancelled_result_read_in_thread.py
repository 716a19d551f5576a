# Flagged: a worker thread reads pool futures and skips the cancelled ones as if done. The
# exception is no stop request to the thread, but the cancelled work is counted as finished.
import threading
from concurrent.futures import CancelledError


def archive_all(futures, done):
    for future in futures:
        try:
            done.append(future.result(timeout=30))
        except CancelledError:  # error: BG105
            continue


def start(futures, done):
    threading.Thread(target=archive_all, args=(futures, done)).start()
