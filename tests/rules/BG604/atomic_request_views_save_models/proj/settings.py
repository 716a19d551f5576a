INSTALLED_APPS = ["shop"]
DATABASES = {
    "default": {"ENGINE": "django.db.backends.postgresql", "NAME": "shop", "ATOMIC_REQUESTS": True},
}
