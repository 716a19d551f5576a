from django.db.models.signals import post_save
from django.dispatch import receiver
from django_rq import get_queue

from netbox_onboard.models import OnboardingLog, OnboardingTask


@receiver(post_save, sender=OnboardingTask)
def task_saved(sender, instance, created, **kwargs):
    if created:
        get_queue("default").enqueue("netbox_onboard.worker.onboard", instance.pk)  # error: BG604


@receiver(post_save, sender=OnboardingLog)
def log_saved(sender, instance, created, **kwargs):
    get_queue("default").enqueue("netbox_onboard.worker.ship_log", instance.pk)
