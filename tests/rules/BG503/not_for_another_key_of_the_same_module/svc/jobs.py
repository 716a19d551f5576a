import redis

from svc.keys import NIGHTLY_LOCK

r = redis.Redis()

def nightly():
    if not r.set(NIGHTLY_LOCK, "1", nx=True, ex=600):
        return
    build_report()

def build_report():
    pass
