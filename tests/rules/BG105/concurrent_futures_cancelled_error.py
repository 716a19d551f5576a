# Flagged: concurrent futures cancelled error.
import concurrent.futures

def collect(future):
    try:
        return future.result()
    except concurrent.futures.CancelledError:  # error: BG105
        return None
