# Not flagged: a put that the loop always leaves after (putting back, on the way out) is made once per run.
import queue

idle = queue.LifoQueue()


class Broken(Exception):
    pass


def borrow(make, check):
    # A pool of idle sessions: the retry loop takes one and, when it turns out broken, puts it back
    # and raises; each run of the loop puts at most once, so the loop feeds nothing.
    while True:
        try:
            session = idle.get(block=False)
        except queue.Empty:
            session = make()
        try:
            check(session)
        except Broken:
            if session.reusable:
                idle.put_nowait(session)
            raise
        return session


spare = queue.Queue()


def hand_over(stream):
    for chunk in stream.chunks():
        if chunk.last:
            spare.put(chunk); break
