import asyncio
import queue
import time

output: queue.Queue = queue.Queue(maxsize=100)


# Not flagged: back-pressure. The loop tries the put again until it succeeds (the try body
# leaves the loop once it does), so nothing is dropped.
async def put_line(line):
    delay = 0.0
    while True:
        try:
            output.put_nowait(line)
            break
        except queue.Full:
            pass
        delay = min(delay + 0.001, 0.01)
        await asyncio.sleep(delay)


def emit(item, stop):
    while not stop.is_set():
        try:
            output.put(item, timeout=0.1)
            return
        except queue.Full:
            continue


# Not flagged: it waits and tries again until its deadline has passed, then re-raises: the
# caller is told (a queue client's blocking put over put_nowait()).
def put_until(item, timeout=None):
    start = time.time()
    while True:
        try:
            return output.put_nowait(item)
        except queue.Full:
            if timeout:
                lasted = time.time() - start
                if timeout > lasted:
                    time.sleep(min(0.1, timeout - lasted))
                else:
                    raise
            else:
                time.sleep(0.1)


# Flagged: the loop goes on to the next item; the one that did not fit is gone.
def forward(items):
    for item in items:
        try:
            output.put_nowait(item)
        except queue.Full:  # error: BG304
            continue


# Flagged: the handler leaves the loop: the put is never tried again.
def offer(item):
    while True:
        try:
            output.put_nowait(item)
            return
        except queue.Full:  # error: BG304
            break
