import asyncio

from shop.pay import charge_async

async def checkout(order):
    async with asyncio.TaskGroup() as tg:
        tg.create_task(charge_async(order))

async def checkout_prebuilt(order):
    group = asyncio.TaskGroup()
    async with group:
        group.create_task(charge_async(order))
