import functools
from threading import Thread

from shop.pay import charge_customer

def checkout(order):
    Thread(target=charge_customer, args=(order,)).start()  # error: BG601

def checkout_partial(order):
    Thread(target=functools.partial(charge_customer, order), daemon=True).start()  # error: BG601

def checkout_lambda(order):
    Thread(target=lambda: charge_customer(order)).start()  # error: BG601
