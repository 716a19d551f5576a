# BG105, not BG101: the worker, in `while not self.stopping:`, awaits `run_task()`, which makes a
# task of the handler, hands it to the module's task counter (where a watchdog cancels handlers
# that run too long) and awaits it. The CancelledError caught may be that handler's, cancelled by
# the watchdog, and skipping the event is then what the worker should do; whether a stop of the
# worker itself is lost depends on whether whoever stops it sets `stopping` first. The same
# worker in `while True:` is BG105 too: which cancellation the handler gets is the same question.
# BG101: a `run_task()` that keeps its task to itself: the only cancellation that can arrive is
# the worker's own.
import asyncio
import signal


class TaskCounter:
    def __init__(self):
        self.tasks = {}

    def track(self, name, task):
        self.tasks[name] = task

    async def watchdog(self, limit):
        while True:
            await asyncio.sleep(limit)
            for task in list(self.tasks.values()):
                task.cancel()


class Module:
    def __init__(self, queue):
        self.queue = queue
        self.counter = TaskCounter()
        self.stopping = False

    async def run_task(self, coro, name):
        task = asyncio.create_task(coro)
        self.counter.track(name, task)
        return await task

    async def handle_event(self, event):
        await asyncio.sleep(1)

    async def worker(self):
        while not self.stopping:
            event = await self.queue.get()
            try:
                await self.run_task(self.handle_event(event), f"handle_event({event})")
            except asyncio.CancelledError:  # error: BG105
                continue

    async def endless_worker(self):
        while True:
            event = await self.queue.get()
            try:
                await self.run_task(self.handle_event(event), f"handle_event({event})")
            except asyncio.CancelledError:  # error: BG105
                continue


class PrivateModule:
    def __init__(self, queue):
        self.queue = queue

    async def run_task(self, coro):
        task = asyncio.create_task(coro)
        return await task

    async def handle_event(self, event):
        await asyncio.sleep(1)

    async def worker(self):
        while True:
            event = await self.queue.get()
            try:
                await self.run_task(self.handle_event(event))
            except asyncio.CancelledError:  # error: BG101
                continue


# BG105: the loop sleeps in a task it keeps where `wake()` can cancel it to cut the wait short:
# the CancelledError caught is usually that wake-up, not a stop of the poller, whose loop ends
# through its flag.
# BG101: the same sleep in a task nobody else can reach: only the poller's own stop cancels it.
class Poller:
    def __init__(self, device):
        self.device = device
        self.sleeper = None
        self.online = True

    def mark_offline(self):
        self.online = False

    def wake(self):
        if self.sleeper is not None:
            self.sleeper.cancel()

    async def run(self):
        while self.online:
            await self.device.read()
            task = asyncio.create_task(asyncio.sleep(30))
            self.sleeper = task
            try:
                await task
            except asyncio.CancelledError:  # error: BG105
                pass

    async def run_alone(self):
        while True:
            await self.device.read()
            task = asyncio.create_task(asyncio.sleep(30))
            try:
                await task
            except asyncio.CancelledError:  # error: BG101
                pass


# BG105: a signal handler defined beside the loop cancels the sleep task it reads.
async def idle(loop, signals):
    running = True

    def on_signal():
        nonlocal running
        running = False
        task.cancel()

    for signal in signals:
        loop.add_signal_handler(signal, on_signal)
    while running:
        task = loop.create_task(asyncio.sleep(150))
        try:
            await task
        except asyncio.CancelledError:  # error: BG105
            pass


# BG105: the loop hands its sleep task's `cancel` to a signal handler, which cuts the wait short.
async def wait_for_signal(loop, device):
    while device.online:
        task = loop.create_task(asyncio.sleep(60))
        loop.add_signal_handler(signal.SIGHUP, task.cancel)
        try:
            await task
        except asyncio.CancelledError:  # error: BG105
            await device.reload()


# BG105: the loop waits, through every cancel of its own, for tasks already asked to stop to
# settle: asyncio.wait() cancels none of them, and the loop ends once `pending` is empty.
async def settle(*tasks):
    pending = set(tasks)
    owner_cancelled = False
    while pending:
        try:
            _, pending = await asyncio.wait(pending)
        except asyncio.CancelledError:  # error: BG105
            owner_cancelled = True
    return owner_cancelled


# BG101: the same wait in a loop on another condition goes on after its own cancel.
async def watch(tasks, service):
    while service.running:
        try:
            _, tasks = await asyncio.wait(tasks, timeout=5)
        except asyncio.CancelledError:  # error: BG101
            pass
