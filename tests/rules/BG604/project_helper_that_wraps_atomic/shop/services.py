from shop.db import unit_of_work
from shop.tasks import send_receipt

def place(order):
    with unit_of_work():
        order.save()
        send_receipt.delay(order.id)  # error: BG604
