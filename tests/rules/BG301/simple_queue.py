# Flagged: simple queue.
import queue

jobs = queue.SimpleQueue()  # error: BG301

def listen(sock):
    while True:
        jobs.put(sock.recv(4096))
