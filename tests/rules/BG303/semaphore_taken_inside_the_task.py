# Not flagged: the coroutine each task runs takes a semaphore or a limiter before it waits on
# anything, so however many tasks the loop starts, only that many do their work at once. The
# limiter may be handed in (a parameter, an attribute of an object its maker gave it) or known by
# its type; the coroutine may reach it through the first call it awaits. Flagged: a coroutine that
# waits on something before it takes the limiter, one whose block around the limiter does no work,
# and one whose ``async with`` is not a limiter.
import asyncio
import logging

import aiohttp
import anyio

log = logging.getLogger(__name__)
MAX_FETCHES = asyncio.Semaphore(8)
RUNNING = set()


class Crawler:
    def __init__(self, gate, pages):
        self.gate = gate
        self.semaphore = gate
        self.pages = pages
        self.session = aiohttp.ClientSession()

    async def crawl(self):
        started = []
        async for page in self.pages:
            started.append(asyncio.create_task(self.visit(page)))
        await asyncio.gather(*started)

    async def visit(self, page):
        body = await self._download(page)
        await self._store(page, body)

    async def _download(self, page):
        log.debug("downloading %s", page)
        async with self.semaphore:
            response = await self.session.get(page)
            return await response.text()

    async def _store(self, page, body):
        await asyncio.sleep(0)

    async def crawl_early(self):
        async for page in self.pages:
            RUNNING.add(asyncio.create_task(self.visit_early(page)))  # error: BG303

    async def visit_early(self, page):
        await self.session.head(page)
        async with self.semaphore:
            await self.session.get(page)

    async def crawl_empty(self):
        async for page in self.pages:
            RUNNING.add(asyncio.create_task(self.ping(page)))  # error: BG303

    async def ping(self, page):
        async with self.semaphore:
            pass
        await self.session.get(page)

    async def crawl_by_session(self):
        async for page in self.pages:
            RUNNING.add(asyncio.create_task(self.fetch_in_session(page)))  # error: BG303

    async def fetch_in_session(self, page):
        async with self.session.get(page) as response:
            await response.read()


async def fetch(url, limiter):
    async with limiter:
        await asyncio.sleep(1)


async def fetch_globally(url):
    async with MAX_FETCHES:
        await asyncio.sleep(1)


async def fetch_unguarded(url):
    await asyncio.sleep(1)


async def follow(urls, gate):
    async for url in urls:
        RUNNING.add(asyncio.create_task(fetch(url, gate)))
        RUNNING.add(asyncio.create_task(fetch_globally(url)))
        RUNNING.add(asyncio.create_task(fetch_unguarded(url)))  # error: BG303
    async with anyio.create_task_group() as group:
        async for url in urls:
            group.start_soon(fetch_globally, url)
            group.start_soon(fetch_unguarded, url)  # error: BG303


async def main(urls):
    await follow(urls, anyio.CapacityLimiter(4))
