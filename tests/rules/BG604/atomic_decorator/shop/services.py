from django.db import transaction

from shop.tasks import send_receipt

@transaction.atomic
def place(order):
    order.save()
    send_receipt.delay(order.id)  # error: BG604

@transaction.atomic()
def place_again(order):
    send_receipt.delay(order.id)  # error: BG604
    mark_placed(order)  # a project function that saves: a write after the publish counts too

def mark_placed(order):
    order.placed = True
    order.save(update_fields=["placed"])
