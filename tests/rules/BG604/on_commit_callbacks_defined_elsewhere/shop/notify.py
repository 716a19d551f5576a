from django.db import transaction

from shop.tasks import send_receipt

@transaction.atomic
def announce(order_id):
    send_receipt.delay(order_id)
