CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "TIMEOUT": 60}}
