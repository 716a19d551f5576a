import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from shop.pay import charge_async, charge_customer

POOL = ThreadPoolExecutor(max_workers=4)

async def a(order):
    await asyncio.create_task(charge_async(order))

async def b(order):
    task = asyncio.create_task(charge_async(order))
    await asyncio.sleep(0)
    return await task

async def c(order):
    task = asyncio.ensure_future(charge_async(order))
    await asyncio.gather(task)

async def d(order):
    t = asyncio.get_running_loop().create_task(charge_async(order))
    await asyncio.wait([t])

def e(order):
    future = POOL.submit(charge_customer, order)
    return future.result()

def f(order):
    return POOL.submit(charge_customer, order).result(timeout=30)

async def g(order):
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, charge_customer, order)

def h(order):
    t = threading.Thread(target=charge_customer, args=(order,))
    t.start()
    t.join()
