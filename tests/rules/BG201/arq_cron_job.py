# Flagged: arq cron job.
import asyncio
from arq import cron

async def pull_prices(ctx):
    while True:  # error: BG201
        await asyncio.sleep(60)

class WorkerSettings:
    cron_jobs = [cron(pull_prices, minute=0)]
