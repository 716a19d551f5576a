import redis
r = redis.Redis.from_url('redis://localhost')
