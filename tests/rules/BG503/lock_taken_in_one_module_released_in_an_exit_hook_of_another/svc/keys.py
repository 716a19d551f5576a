NIGHTLY_LOCK = "lock:nightly-report"
CACHE_KEY = "report:latest"
