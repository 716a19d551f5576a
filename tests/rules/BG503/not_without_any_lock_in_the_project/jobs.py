import redis

r = redis.Redis()

def cleanup():
    r.delete("reports")
