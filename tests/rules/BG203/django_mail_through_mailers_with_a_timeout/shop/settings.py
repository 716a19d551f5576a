INSTALLED_APPS = ["django.contrib.auth", "shop"]

MAILERS = {
    "default": {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {"host": "smtp.example.com", "timeout": 10},
    },
}
