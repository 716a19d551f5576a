from django.db.models.signals import post_save
from django.dispatch import receiver

from shop.models import Audit, Order, Refund
from shop.tasks import ship


@receiver(post_save, sender=Order)
def order_saved(sender, instance, created, **kwargs):
    if created:
        ship.delay(instance.pk)  # error: BG604


@receiver(post_save, sender=Refund)
def refund_saved(sender, instance, **kwargs):
    ship.delay(instance.order_id)


@receiver(post_save, sender=Audit)
def audit_saved(sender, instance, **kwargs):
    ship.delay(0)
