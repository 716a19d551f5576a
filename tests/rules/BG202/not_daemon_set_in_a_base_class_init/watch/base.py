import threading

class WatcherBase(threading.Thread):
    def __init__(self, interval=1):
        super().__init__()
        self.daemon = True
        self.interval = interval
