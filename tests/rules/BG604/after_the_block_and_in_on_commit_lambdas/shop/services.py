from functools import partial

from django.db import transaction

from shop.tasks import send_receipt

def place(order):
    with transaction.atomic():
        order.save()
        transaction.on_commit(lambda: send_receipt.delay(order.id))
        transaction.on_commit(partial(send_receipt.delay, order.id))
    send_receipt.delay(order.id)

@transaction.atomic
def place_again(order):
    order.save()
    transaction.on_commit(lambda: send_receipt.apply_async(args=(order.id,)))
