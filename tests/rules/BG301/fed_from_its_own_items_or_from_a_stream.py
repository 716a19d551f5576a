# Flagged: a queue fed once per row of a query, which has no size known in advance.
# Not flagged: a loop that takes items off the same queue and puts some back (it cannot grow it).
import queue


def fetch_rows():
    return []


class Relay:
    def __init__(self):
        self.inbox = queue.Queue()
        self.outbox = queue.Queue()  # error: BG301

    def requeue_failed(self):
        for item in iter(self.inbox.get, None):
            if item.failed:
                self.inbox.put(item)

    def load(self):
        for row in fetch_rows():
            self.outbox.put(row)


# Not flagged: fed once per file of a directory listing, read at once: it holds at most the files
# already on disk.
import os


class Compressor:
    def __init__(self):
        self.pending = queue.Queue()

    def startup_walk(self, folder):
        for name in os.listdir(folder):
            self.pending.put(os.path.join(folder, name))
