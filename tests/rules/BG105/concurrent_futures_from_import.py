# Flagged: concurrent futures from import.
from concurrent.futures import CancelledError

def collect(future):
    try:
        return future.result()
    except CancelledError:  # error: BG105
        return None
