import redis.asyncio
from arq.worker import func

r = redis.asyncio.Redis()

async def rebuild(ctx):
    async with r.lock("rebuild", timeout=60):  # error: BG501
        pass

class WorkerSettings:
    functions = [func(rebuild, timeout=300)]
