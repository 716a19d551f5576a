import atexit

import redis

from svc import keys

r = redis.Redis()

def release_on_exit():
    r.delete(keys.NIGHTLY_LOCK)  # error: BG503

atexit.register(release_on_exit)
