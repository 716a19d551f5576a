# Not flagged: a relay thread's lifetime loop that ends when a message arrives on its control
# queue, a message it never takes off the queue: the message is the stop signal, sent by
# whoever stops the relay (the stop-message pattern), like an Event's is_set().
# Flagged: a loop that waits for a result to arrive and then reads it waits for an answer that
# may never come.
import queue
import threading
import time


def relay(control: queue.Queue, channel) -> None:
    while control.empty():
        time.sleep(1.0)
        channel.pump()
    channel.close()


def fetch(requests_out: queue.Queue, results: queue.Queue, key):
    requests_out.put(key)
    while results.empty():  # error: BG206
        time.sleep(0.5)
    return results.get_nowait()


def start(channel) -> threading.Thread:
    control: queue.Queue = queue.Queue(maxsize=1)
    worker = threading.Thread(target=relay, args=(control, channel))
    worker.start()
    threading.Thread(target=fetch, args=(queue.Queue(10), queue.Queue(10), "k")).start()
    return worker
