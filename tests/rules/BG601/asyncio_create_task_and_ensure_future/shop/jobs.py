import asyncio
from asyncio import ensure_future

from shop.pay import charge_async

async def checkout(order):
    asyncio.create_task(charge_async(order))  # error: BG601  error: BG606

async def checkout_old(order):
    ensure_future(charge_async(order))  # error: BG601  error: BG606
