import asyncio
import multiprocessing
import threading

import redis
import redis_lock
import sherlock
from django.core.cache import cache
from huey import RedisHuey
from pottery import Redlock

r = redis.Redis()
huey = RedisHuey("proj")

def take():
    threading.Lock()
    threading.RLock()
    asyncio.Lock()
    multiprocessing.Lock()
    r.set("a", 1)
    r.set("b", 1, nx=False)
    r.set("c", 1, xx=True)
    r.lock("d", timeout=10)
    redis_lock.Lock(r, "e", expire=10)
    Redlock(key="f", masters={r})
    Redlock(key="g", masters={r}, auto_release_time=0)
    Redlock(key="h", masters={r}, auto_release_time=None)
    sherlock.Lock("i")
    cache.add("j", 1)
    cache.add("k", 1, timeout=0)
    with huey.lock_task("l", ttl=10):
        pass


def default_version():
    # A write-if-absent whose answer nobody reads sets a default once: it takes no lock.
    cache.add("glossary-version", 1, None)
    r.set("first-seen", 1, nx=True)
