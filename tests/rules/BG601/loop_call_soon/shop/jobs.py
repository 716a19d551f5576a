import asyncio

from shop.pay import charge_customer

async def checkout(order):
    asyncio.get_running_loop().call_soon(charge_customer, order)  # error: BG601
