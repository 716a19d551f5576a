import redis

client = redis.Redis()


def acquire(name, ttl=None):
    return client.lock(name, timeout=ttl)  # error: BG502


class Guard:
    def __init__(self, name, blocking=True, ttl=None):
        self.lock = client.lock(name, timeout=ttl, blocking=blocking)  # error: BG502


def acquire_for(name, ttl=None):
    return client.lock(name, timeout=ttl)


def acquire_as_told(name, ttl=None):
    return client.lock(name, timeout=ttl)


def acquire_later(name, ttl=None):
    return client.lock(name, timeout=ttl)
