# Flagged: executor shutdown wait false.
from concurrent.futures import ThreadPoolExecutor

EXECUTOR = ThreadPoolExecutor(max_workers=4)

def stop():
    EXECUTOR.shutdown(wait=False)  # error: BG402

def stop_positional():
    EXECUTOR.shutdown(False)  # error: BG402
