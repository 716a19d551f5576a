from django.db import models


class Order(models.Model):
    total = models.IntegerField()


class Refund(models.Model):
    order = models.ForeignKey(Order, on_delete=models.CASCADE)


class Import(models.Model):
    source = models.URLField()


class Audit(models.Model):
    text = models.TextField()
