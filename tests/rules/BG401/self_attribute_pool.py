# Flagged: a pool kept in a self attribute.
import multiprocessing

class Relay:
    def __init__(self):
        self.senders = multiprocessing.Pool(processes=2)  # error: BG401

    def send(self, event):
        self.senders.apply_async(print, (event,))
