# Flagged: skip locked false still waits.
from celery import shared_task
from shop.models import Order

@shared_task
def ship_orders():
    return list(Order.objects.select_for_update(skip_locked=False)[:100])  # error: BG204
