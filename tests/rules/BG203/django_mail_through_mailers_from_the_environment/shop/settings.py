import os

INSTALLED_APPS = ["django.contrib.auth", "shop"]

_email_backend = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
MAILERS = {"default": {"BACKEND": _email_backend}}
if _email_backend == "django.core.mail.backends.smtp.EmailBackend":
    MAILERS["default"]["OPTIONS"] = {"host": os.environ.get("EMAIL_HOST") or "localhost"}
