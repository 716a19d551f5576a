import multiprocessing

class Relay:
    def __init__(self):
        self.workers = multiprocessing.Pool(2)

    def send(self, event):
        self.workers.apply_async(print, (event,))
