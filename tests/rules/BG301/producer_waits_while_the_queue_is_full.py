# Not flagged: a producer that checks the queue's size (`qsize()`) and waits before it puts: the
# queue holds about as many items as the check lets through.
# Flagged: a reader that skips empty reads of a socket (`len(data) == 0` is no bound on the queue),
# and a collector that leaves when its queue is full, which a queue with no maxsize never is.
import queue
import threading


class ProducerConsumerDaemon:
    def __init__(self, consumers, graceful_stop: threading.Event):
        self.queue = queue.Queue()
        self.results = queue.Queue()  # error: BG301
        self.frames = queue.Queue()  # error: BG301
        self.consumers = consumers
        self.graceful_stop = graceful_stop

    def produce(self, products):
        while not self.graceful_stop.is_set():
            if self.queue.qsize() > len(self.consumers):
                self.graceful_stop.wait(1)
                continue
            try:
                self.queue.put(next(products))
            except StopIteration:
                break

    def collect(self, source):
        while True:
            if self.results.full():
                break
            self.results.put(source.recv())

    def read(self, sock):
        while True:
            data = sock.recv(1024)
            if len(data) == 0:
                continue
            self.frames.put(data)
