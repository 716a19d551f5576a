# Flagged: asyncio wait for none.
import asyncio

async def fetch_prices(ctx):
    await asyncio.wait_for(ctx["feed"].next(), None)  # error: BG206
    await asyncio.wait_for(ctx["feed"].next(), timeout=None)  # error: BG206
    await asyncio.wait_for(ctx["feed"].next(), 10)
    await asyncio.wait_for(ctx["feed"].next(), timeout=10)

class WorkerSettings:
    functions = [fetch_prices]
