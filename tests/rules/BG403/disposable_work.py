# Not flagged: disposable work.
import threading

def push_metrics(statsd):
    statsd.gauge("queue.depth", 3)

def warm_cache(cache, keys):
    for key in keys:
        cache.get(key)

def start(statsd, cache):
    threading.Thread(target=push_metrics, args=(statsd,), daemon=True).start()
    threading.Thread(target=warm_cache, args=(cache, ["a"]), daemon=True).start()
