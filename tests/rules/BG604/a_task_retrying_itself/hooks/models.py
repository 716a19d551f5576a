from django.db import models


class Call(models.Model):
    log_id = models.IntegerField()
    webhook_id = models.IntegerField()
    status = models.IntegerField()


class Delivery(models.Model):
    order_id = models.IntegerField()
    attempt = models.IntegerField()
    notified = models.BooleanField(default=False)
