import redis
import redis_lock
from django.core.cache import cache
from huey import RedisHuey
from redis.lock import Lock

r = redis.Redis()
huey = RedisHuey("proj")

def take():
    r.lock("a")  # error: BG502
    r.lock("b", timeout=None)  # error: BG502
    r.lock("c", timeout=0)  # error: BG502
    Lock(r, "d")  # error: BG502
    taken = r.set("e", 1, nx=True)  # error: BG502
    redis_lock.Lock(r, "f")  # error: BG502
    redis_lock.Lock(r, "g", expire=0)  # error: BG502
    taken = cache.add("h", 1, timeout=None)  # error: BG502
    taken = cache.add("i", 1, None)  # error: BG502
    cache.lock("j")  # error: BG502
    with huey.lock_task("k"):  # error: BG502
        pass
