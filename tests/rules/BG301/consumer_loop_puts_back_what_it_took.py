# Not flagged: the worker's own loop takes a job off the queue and puts it back to retry it (one
# out, one in): the consumer cannot grow its queue; jobs come in once each through assign().
# Flagged: a crawler's frontier, which gets one page and puts every link found on it.
import queue
import threading


class DownloadThread(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.queue = queue.Queue()
        self.running = True

    def run(self):
        while self.running:
            try:
                job = self.queue.get(timeout=5)
            except queue.Empty:
                continue
            if job == "quit":
                break
            try:
                job.download()
            except ConnectionError:
                self.queue.put(job)

    def assign(self, job):
        self.queue.put(job)


class Crawler:
    def __init__(self, fetch):
        self.fetch = fetch
        self.frontier = queue.Queue()  # error: BG301

    def crawl(self):
        while True:
            page = self.fetch(self.frontier.get())
            for link in page.links():
                self.frontier.put(link)
