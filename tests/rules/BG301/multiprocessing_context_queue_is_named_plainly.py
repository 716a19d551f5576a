# Flagged: multiprocessing context queue is named plainly.
import multiprocessing

ctx = multiprocessing.get_context("spawn")
results = ctx.Queue()  # error: BG301

def produce(sock):
    while True:
        results.put(sock.recv(1024))
