import asyncio

from shop.pay import charge_customer

async def checkout(order):
    asyncio.create_task(asyncio.to_thread(charge_customer, order))  # error: BG601  error: BG606
