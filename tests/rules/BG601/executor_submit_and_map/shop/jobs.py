from concurrent.futures import ThreadPoolExecutor

from shop.pay import charge_customer

POOL = ThreadPoolExecutor(max_workers=4)

def checkout(order):
    POOL.submit(charge_customer, order)  # error: BG601  error: BG605

def checkout_all(orders):
    POOL.map(charge_customer, orders)  # error: BG601
