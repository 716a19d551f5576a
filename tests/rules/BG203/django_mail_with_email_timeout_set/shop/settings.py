INSTALLED_APPS = ["django.contrib.auth", "shop"]

EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_HOST = "smtp.example.com"
EMAIL_PORT = 587
EMAIL_TIMEOUT = 30
