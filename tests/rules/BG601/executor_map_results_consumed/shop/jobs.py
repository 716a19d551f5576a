from concurrent.futures import ThreadPoolExecutor

from shop.pay import charge_customer

POOL = ThreadPoolExecutor(max_workers=4)

def a(orders):
    return list(POOL.map(charge_customer, orders))

def b(orders):
    for receipt in POOL.map(charge_customer, orders):
        print(receipt)

def c(orders):
    receipts = POOL.map(charge_customer, orders)
    return sorted(receipts)

def d(orders):
    return [r.id for r in POOL.map(charge_customer, orders)]
