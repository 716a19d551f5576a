# file: orders/services.py
"""Placing orders."""
from django.db import transaction

from orders.models import Order
from orders.stock import reserve_stock
from orders.tasks import refresh_stock_report, send_order_confirmation
from functools import partial


def place_order(customer, cart) -> Order:
    with transaction.atomic():
        order = Order.objects.create(customer=customer, total=cart.total)
        order.add_lines(cart.items.all())
        transaction.on_commit(partial(send_order_confirmation.delay, order.id))  # the customer's mail
        transaction.on_commit(refresh_stock_report.delay)
        reserve_stock(order)  # raises OutOfStock, which rolls the order back
    return order


def place_order_on_replica(customer, cart) -> Order:
    with transaction.atomic(using="orders"):  # not offered: on_commit must name the same database
        order = Order.objects.create(customer=customer, total=cart.total)
        send_order_confirmation.delay(order.id)
    return order


def place_order_and_track(customer, cart):
    with transaction.atomic():
        order = Order.objects.create(customer=customer, total=cart.total)
        result = send_order_confirmation.delay(order.id)  # not offered: the result is used
    return order, result.id
