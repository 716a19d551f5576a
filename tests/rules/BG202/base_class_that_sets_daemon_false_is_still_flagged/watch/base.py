import threading

class WatcherBase(threading.Thread):
    def __init__(self):
        super().__init__()
        self.daemon = False
