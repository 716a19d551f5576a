import threading

from shop.pay import charge_customer

def checkout(order):
    charge_customer(order)

def post(order):
    threading.Thread(target=checkout, args=(order,)).start()  # error: BG601
