from celery import Celery

app = Celery("digest")
app.conf.task_soft_time_limit = 240
