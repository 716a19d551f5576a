# Flagged: submit over endless itertools count.
import itertools
from concurrent.futures import ThreadPoolExecutor

EXECUTOR = ThreadPoolExecutor()

def poll(fetch):
    for page in itertools.count():
        EXECUTOR.submit(fetch, page)  # error: BG303  error: BG605
