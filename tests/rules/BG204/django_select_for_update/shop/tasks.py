from celery import shared_task
from django.db import transaction
from shop.models import Order

@shared_task
def ship_orders():
    with transaction.atomic():
        for order in Order.objects.select_for_update().filter(state="paid")[:100]:  # error: BG204
            order.ship()
