import redis
import redis_lock

r = redis.Redis()

def take():
    with redis_lock.Lock(r, "reports", expire=60):
        pass

def force_release():
    r.delete("lock:reports")  # error: BG503
