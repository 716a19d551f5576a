# The handler sets the local flag its `while` tests, so the loop leaves (not BG101: nothing goes
# round again). But the coroutine returns as if it had finished, and a wrapper of the project
# awaits it and carries on (the same shape as an MQTT publisher that sends its offline status on
# cancel): whether the stop is lost there depends on the caller, which is BG105's to judge.
import asyncio


class Worker:
    def __init__(self, coro):
        self._coro = coro

    async def run(self):
        await self._coro()
        print("finished")


async def publisher(client, queue):
    shutdown = False
    while not shutdown:
        try:
            async with client:
                try:
                    while True:
                        topic, value = await queue.get()
                        await client.publish(topic, value)
                except asyncio.CancelledError:  # error: BG105
                    await client.publish("status", "offline")
                    shutdown = True
        except OSError:
            await asyncio.sleep(5)


async def main(client):
    await Worker(lambda: publisher(client, asyncio.Queue(maxsize=100))).run()
