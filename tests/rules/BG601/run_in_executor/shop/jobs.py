import asyncio

from shop.pay import charge_customer

async def checkout(order):
    loop = asyncio.get_running_loop()
    loop.run_in_executor(None, charge_customer, order)  # error: BG601  error: BG605
