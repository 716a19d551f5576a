from functools import partial

from django.db import transaction

from shop.notify import announce
from shop.tasks import send_receipt

def after_commit(request, order_id):
    send_receipt.delay(order_id)

def not_a_callback(request, order_id):
    request.user.orders.filter(pk=order_id).update(state="placed")
    send_receipt.delay(order_id)  # error: BG604

def place_order(request):
    transaction.on_commit(partial(announce, 1))
    transaction.on_commit(partial(after_commit, request, 1))
