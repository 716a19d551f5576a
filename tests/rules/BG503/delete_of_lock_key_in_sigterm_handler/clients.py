import redis
r = redis.Redis()
LOCK_KEY = 'reports:nightly'
