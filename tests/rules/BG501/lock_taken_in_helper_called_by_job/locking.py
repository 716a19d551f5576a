import redis

r = redis.Redis()

def exclusive(name):
    return r.lock("exclusive:" + name, timeout=30)

def guarded():
    with r.lock("guarded", timeout=30):  # error: BG501
        work()

def work():
    pass
