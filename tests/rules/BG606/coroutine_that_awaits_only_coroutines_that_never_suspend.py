# Not flagged: a task of a coroutine whose only awaits are of project coroutines that never suspend
# themselves (a metrics hook that awaits a counter bump, which awaits nothing): the whole chain runs
# in the task's first step, held by the event loop until it ends.
# Flagged: the same chain once one link awaits something that does suspend (a sleep, a library
# call), a chain that loops back on itself (nothing shows it ends without waiting), and an await
# of a method a derived class defines again (the override may wait).
import asyncio


class Counters:
    def __init__(self):
        self.values = {}

    async def bump(self, name):
        self.values[name] = self.values.get(name, 0) + 1

    async def bump_later(self, name):
        await asyncio.sleep(0)
        self.values[name] = self.values.get(name, 0) + 1


class ServiceHooks:
    def __init__(self):
        self.counters = Counters()

    async def on_success(self, name):
        await self._count(name)
        await self._count(f"{name}.ok")

    async def _count(self, name):
        await self.counters.bump(name)

    async def on_slow_success(self, name):
        await self._count(name)
        await self.counters.bump_later(name)

    async def ping(self, times):
        if times:
            await self.pong(times - 1)

    async def pong(self, times):
        if times:
            await self.ping(times - 1)

    async def on_failure(self, name):
        await self.record(name)

    async def record(self, name):
        self.last = name


class RemoteHooks(ServiceHooks):
    async def record(self, name):
        await asyncio.sleep(0.1)
        self.last = name


def report(hooks: ServiceHooks, name: str) -> None:
    asyncio.create_task(hooks.on_success(name))
    asyncio.create_task(hooks.on_slow_success(name))  # error: BG606
    asyncio.create_task(hooks.ping(3))  # error: BG606
    asyncio.create_task(hooks.on_failure(name))  # error: BG606
