from celery import Celery
app = Celery("proj")
