from django.db import models


class IndexedDocument(models.Model):
    title = models.CharField(max_length=200)
    body = models.TextField()
