import asyncio

from shop.pay import charge_async

class Worker:
    def __init__(self):
        self.group = asyncio.TaskGroup()

    async def checkout(self, order):
        self.group.create_task(charge_async(order))  # error: BG601

async def checkout(order, tg: asyncio.TaskGroup):
    tg.create_task(charge_async(order))  # error: BG601
