import time

from watch.base import WatcherBase

class FileWatcher(WatcherBase):
    def run(self):
        while True:
            time.sleep(self.interval)
