from celery import shared_task
from shop.queries import claim_paid_orders

@shared_task
def ship_orders():
    for order in claim_paid_orders():
        order.ship()
