INSTALLED_APPS = ["django.contrib.auth", "shop"]

EMAIL_BACKEND = "anymail.backends.mailgun.EmailBackend"
EMAIL_HOST = "smtp.example.com"
EMAIL_PORT = 587
