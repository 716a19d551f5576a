# Not flagged: cancel then await attribute.
import asyncio

class Service:
    async def stop(self):
        self.task.cancel()
        try:
            await self.task
        except asyncio.CancelledError:
            pass
