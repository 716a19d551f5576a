from django.db import models
from netbox.models import NetBoxModel


class OnboardingTask(NetBoxModel):
    address = models.CharField(max_length=200)


class OnboardingLog(NetBoxModel):
    text = models.TextField()
