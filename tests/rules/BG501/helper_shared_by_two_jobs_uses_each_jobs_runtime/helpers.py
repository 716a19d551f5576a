import redis

r = redis.Redis()

def locked_step():
    with r.lock("step", timeout=60):  # error: BG501
        pass
