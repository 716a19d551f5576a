# `self.data_layer` is a value bgcheck cannot type, and `update_step` is defined by a data-layer
# base class and by the backends derived from it: the dropped task runs one of those. Flagged
# (BG602): every backend's update_step() lets the errors of its two requests out. Reported as BG606
# instead: `save_thread()`, which one backend runs inside a catch-all, and `close()`, a name a class
# outside that family defines too (which of them runs, bgcheck cannot tell).
import asyncio
import logging

import httpx

log = logging.getLogger(__name__)


class BaseDataLayer:
    async def update_step(self, step: dict) -> None:
        raise NotImplementedError

    async def save_thread(self, thread: dict) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        return None


class HttpDataLayer(BaseDataLayer):
    async def update_step(self, step: dict) -> None:
        async with httpx.AsyncClient(timeout=10) as client:
            await client.put(f"https://steps.example/{step['id']}", json=step)
            await client.post("https://steps.example/index", json={"id": step["id"]})

    async def save_thread(self, thread: dict) -> None:
        async with httpx.AsyncClient(timeout=10) as client:
            await client.put(f"https://threads.example/{thread['id']}", json=thread)
            await client.post("https://threads.example/index", json={"id": thread["id"]})


class CachedDataLayer(BaseDataLayer):
    async def update_step(self, step: dict) -> None:
        async with httpx.AsyncClient(timeout=10) as client:
            await client.put(f"https://cache.example/{step['id']}", json=step)
            await client.delete(f"https://cache.example/stale/{step['id']}")

    async def save_thread(self, thread: dict) -> None:
        try:
            async with httpx.AsyncClient(timeout=10) as client:
                await client.put(f"https://cache.example/{thread['id']}", json=thread)
                await client.post("https://cache.example/index", json={"id": thread["id"]})
        except Exception:
            log.exception("thread not cached")


class Uploader:
    async def close(self) -> None:
        async with httpx.AsyncClient(timeout=10) as client:
            await client.post("https://uploads.example/close")
            await client.post("https://uploads.example/flush")


class Step:
    def __init__(self, data_layer, step: dict) -> None:
        self.data_layer = data_layer
        self.step = step

    def update(self) -> None:
        asyncio.create_task(self.data_layer.update_step(self.step))  # error: BG602

    def save(self, thread: dict) -> None:
        asyncio.create_task(self.data_layer.save_thread(thread))  # error: BG606

    def finish(self) -> None:
        asyncio.create_task(self.data_layer.close())  # error: BG606
