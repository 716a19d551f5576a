import redis

r = redis.Redis()

def sync(uid):
    with r.lock(f"user:{uid}:sync", timeout=60):
        pass

def reset(uid):
    r.delete(f"user:{uid}:sync")  # error: BG503
    r.delete("user:42:sync")  # error: BG503
    r.unlink("user:42:other")
    r.delete(f"{uid}")
    r.hdel("locks", "user:7:sync")  # error: BG503
    r.hdel("user:7:sync", "field")
