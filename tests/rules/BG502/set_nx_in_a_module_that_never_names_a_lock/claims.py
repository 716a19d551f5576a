import time

import redis

r = redis.Redis()


def claim(job_id, blocking=True):
    started = time.monotonic()  # a clock read
    taken = r.set(f"claim:{job_id}", started, nx=True)  # error: BG502
    return taken
