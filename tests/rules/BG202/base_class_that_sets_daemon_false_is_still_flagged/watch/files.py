import time

from watch.base import WatcherBase

class FileWatcher(WatcherBase):  # error: BG202
    def run(self):
        while True:
            time.sleep(1)
