import atexit

import redis

from svc import keys

r = redis.Redis()

def clear_cache():
    r.delete(keys.CACHE_KEY)

atexit.register(clear_cache)
