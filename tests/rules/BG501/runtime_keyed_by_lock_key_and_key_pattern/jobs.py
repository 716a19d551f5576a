import redis

r = redis.Redis()

def plain():
    with r.lock("reports:nightly", timeout=60):  # error: BG501
        pass

def per_day(day):
    with r.lock(f"report:{day}", timeout=60):  # error: BG501
        pass
