# Flagged: a raise the loop's own handler catches does not leave the loop, and a put before a
# `continue` is made on every pass: both queues are fed by the stream.
import queue

retries = queue.LifoQueue()  # error: BG301
seen = queue.Queue()  # error: BG301


class Skip(Exception):
    pass


def consume(stream):
    while True:
        item = stream.read()
        try:
            retries.put_nowait(item)
            raise Skip()
        except Skip:
            pass


def record(stream):
    for chunk in stream.chunks():
        if chunk.small:
            seen.put(chunk)
            continue
        break
