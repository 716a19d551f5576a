# Reported as BG606, not BG602: a MicroPython program (it imports `machine`); MicroPython's asyncio
# keeps a strong reference to every task it runs, so a dropped task is never collected mid-run.
import asyncio

import machine


async def report_reading(client) -> None:
    value = machine.ADC(26).read_u16()
    await client.connect()
    await client.publish("sensors/temperature", str(value))


def on_tick(client) -> None:
    asyncio.create_task(report_reading(client))  # error: BG606
