from django.db import models


class Product(models.Model):
    name = models.CharField(max_length=100)
    tags = models.ManyToManyField("Tag")


class Tag(models.Model):
    name = models.CharField(max_length=40)


class Review(models.Model):
    product = models.ForeignKey(Product, on_delete=models.CASCADE)


class Visit(models.Model):
    path = models.CharField(max_length=200)


class Supplier(models.Model):
    name = models.CharField(max_length=100)
