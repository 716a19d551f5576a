import redis

r = redis.Redis()
TTL = 600

def settle(done):
    if r.set("settle-lock", "1", nx=True, ex=TTL):
        try:
            pass
        finally:
            if done:
                r.delete("settle-lock")  # error: BG503
