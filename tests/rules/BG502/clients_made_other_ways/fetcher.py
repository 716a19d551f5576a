# Flagged: redis clients made by a factory of another spelling (redis.client.StrictRedis.from_url,
# kept in a module global as a scheduler's leader lock does) and aioredis 2 clients (the asyncio
# client that became redis.asyncio, with the same lock() API), annotated or made by from_url.
# Not flagged: the same locks with a timeout.
import aioredis
from redis.client import StrictRedis

rdb = StrictRedis.from_url("redis://localhost/0")
cache = aioredis.from_url("redis://localhost/1")


def leader_lock():
    lock = rdb.lock("celery:beat:task_lock")  # error: BG502
    return lock.acquire(blocking=False)


def bounded_leader_lock():
    lock = rdb.lock("celery:beat:task_lock", timeout=30)
    return lock.acquire(blocking=False)


async def fetch_policy(redis: aioredis.Redis, source_id: str) -> None:
    lock = redis.lock(source_id)  # error: BG502
    await lock.acquire()
    try:
        await cache.lock(f"cache:{source_id}").acquire()  # error: BG502
    finally:
        await lock.release()


async def fetch_policy_bounded(redis: aioredis.Redis, source_id: str) -> None:
    async with redis.lock(source_id, timeout=60):
        pass
