import time

import redis

r = redis.Redis()
TTL = 600

def settle():
    deadline = time.monotonic() + TTL
    if r.set("settle-lock", "1", nx=True, ex=TTL):
        try:
            pass
        finally:
            if time.monotonic() < deadline:
                r.delete("settle-lock")
