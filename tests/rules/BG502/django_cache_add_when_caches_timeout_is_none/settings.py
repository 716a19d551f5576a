CACHES = {"default": {"BACKEND": "django_redis.cache.RedisCache", "TIMEOUT": None}}
