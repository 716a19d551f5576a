from django.db import transaction

from shop.tasks import send_receipt

@transaction.atomic
def place(order):
    send_receipt.delay(order.id)  # error: BG604

@transaction.atomic()
def place_again(order):
    send_receipt.delay(order.id)  # error: BG604
