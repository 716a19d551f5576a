import asyncio

from shop.pay import charge_async

async def checkout(order):
    loop = asyncio.get_running_loop()
    loop.create_task(charge_async(order))  # error: BG601  error: BG606
