DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "ATOMIC_REQUESTS": True}}
