import redis

r = redis.Redis()

def run_alone(name, work):
    with r.lock(name, timeout=600, blocking_timeout=0):
        return work()
