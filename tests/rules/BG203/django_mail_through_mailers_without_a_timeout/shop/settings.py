INSTALLED_APPS = ["django.contrib.auth", "shop"]

MAILERS = {
    "default": {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {"host": "smtp.example.com", "port": 587, "use_tls": True},
    },
    "bulk": {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {"host": "bulk.example.com", "timeout": 10},
    },
}
