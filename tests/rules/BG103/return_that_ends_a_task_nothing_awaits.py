# Not flagged: the coroutine runs only as a task of its own that nothing awaits; its `return` in
# `finally:` ends the task as a success, as asked, and nothing carries on from it.
# Flagged: the same shape in a coroutine its caller awaits (the caller goes on as if the work had
# finished), and a `continue` in the task's own loop (the loop goes round again).
import asyncio


class Menu:
    def __init__(self, bot):
        self.bot = bot
        self.running = True
        self.tasks = set()

    def start(self):
        self.tasks.add(asyncio.get_running_loop().create_task(self.internal_loop()))
        self.tasks.add(asyncio.get_running_loop().create_task(self.poll_loop()))

    async def internal_loop(self):
        try:
            await self.bot.wait_for("reaction_add")
        finally:
            await self.bot.clear_reactions()
            return

    async def poll_loop(self):
        while self.running:
            try:
                await self.bot.poll()
            finally:
                continue  # error: BG103

    async def fetch(self):
        try:
            return await self.bot.fetch()
        finally:
            return None  # error: BG103

    async def refresh(self):
        data = await self.fetch()
        await self.bot.render(data)
