# Flagged: self attribute executor.
from concurrent.futures import ThreadPoolExecutor

class Relay:
    def __init__(self):
        self.executor = ThreadPoolExecutor(max_workers=2)  # error: BG401

    def send(self, event):
        self.executor.submit(print, event)  # error: BG602
