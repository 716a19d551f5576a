from django.db import models


class Status(models.Model):
    discoverable = models.BooleanField(default=False)
    counted = models.BooleanField(default=False)

    def refresh(self):
        self.save()
