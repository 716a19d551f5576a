import asyncio

from celery import shared_task

from shop.pay import charge_customer

@shared_task(acks_late=True)
def charge_task(order_id):
    charge_customer(order_id)

def checkout(order):
    charge_task.delay(order.id)
    charge_task.apply_async(args=(order.id,))

async def checkout_async(order, tasks):
    asyncio.get_running_loop().run_in_executor(None, charge_task.delay, order.id)  # error: BG605
