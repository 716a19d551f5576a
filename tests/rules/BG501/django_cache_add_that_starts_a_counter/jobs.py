from celery import Celery
from django.core.cache import cache

app = Celery("proj")


def record_hit(scope, minute):
    key = f"throttle:{scope}:{minute}"
    if cache.add(key, 1, timeout=120):
        return 1
    return int(cache.incr(key))


@app.task
def sync_market(scope, minute):
    if record_hit(scope, minute) > 100:
        return
    hits_key = f"hits:{scope}"
    if cache.add(hits_key, 1, timeout=60):
        pass
    else:
        cache.incr(hits_key)
    if not cache.add(f"lock:{scope}", 1, timeout=120):  # error: BG501
        return
    fetch_orders(scope)
