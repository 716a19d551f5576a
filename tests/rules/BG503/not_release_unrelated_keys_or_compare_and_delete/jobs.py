import redis

r = redis.Redis()
RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end"

def take():
    lock = r.lock("reports", timeout=60)
    lock.acquire()
    try:
        pass
    finally:
        lock.release()

def cleanup(token):
    r.delete("reports:cache")
    r.delete("other")
    r.eval(RELEASE, 1, "reports", token)
