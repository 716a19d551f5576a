from celery import Celery

app = Celery("billing")
app.config_from_object("django.conf:settings", namespace="CELERY")
