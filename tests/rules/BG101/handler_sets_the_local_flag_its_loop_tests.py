# A task's loop that tests a local flag, and a handler that sets it: once the handler is done the
# loop tests the flag and leaves, and the task ends (as a success). Not BG101; the task was
# started on its own and nothing awaits it, so nothing goes on from it either (not BG105).
import asyncio


class Agent:
    def __init__(self, docker):
        self.docker = docker
        self.tasks = []

    def start(self):
        self.tasks.append(asyncio.create_task(self.check_state()))
        self.tasks.append(asyncio.create_task(self.watch_events()))
        self.tasks.append(asyncio.create_task(self.poll_stats()))
        self.tasks.append(asyncio.create_task(self.poll_health()))

    async def check_state(self):
        shutdown = False
        while not shutdown:
            try:
                await self.docker.list_running_containers()
                await asyncio.sleep(90)
            except asyncio.CancelledError:
                shutdown = True
            except Exception:
                print("check failed")

    # BG101: the handler sets the flag, but the loop tests another one: it goes round again.
    async def watch_events(self):
        shutdown = False
        stopped = False
        while not stopped:
            try:
                await self.docker.next_event()
            except asyncio.CancelledError:  # error: BG101
                shutdown = True
        return shutdown

    async def poll_stats(self):
        running = True
        while running:
            try:
                await self.docker.stats()
                await asyncio.sleep(5)
            except asyncio.CancelledError:
                running = False

    # BG101: the handler sets the flag to the value the loop goes on with.
    async def poll_health(self):
        running = True
        while running:
            try:
                await self.docker.ping()
            except asyncio.CancelledError:  # error: BG101
                running = True
            await asyncio.sleep(5)
