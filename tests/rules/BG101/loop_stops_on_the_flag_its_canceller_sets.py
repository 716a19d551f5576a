import asyncio


# Not flagged: stop() sets the loop's flag before it cancels the task, so once the cancelled
# wait is swallowed the loop tests the flag and ends.
class Consumer:
    def __init__(self, queue):
        self.queue = queue
        self.should_stop = False
        self.task = None

    async def consume(self):
        while not self.should_stop:
            try:
                await self.handle(await self.queue.get())
            except asyncio.CancelledError:
                pass

    async def handle(self, item):
        await asyncio.sleep(0)

    def stop(self):
        self.should_stop = True
        if self.task:
            self.task.cancel()


# Flagged: the flag is set by a method that cancels nothing; the cancel comes from elsewhere
# (a reconnect), the flag stays unset and the loop goes round again.
class Poller:
    def __init__(self):
        self.stopping = False

    async def run(self, fetch):
        while not self.stopping:
            try:
                await fetch()
            except asyncio.CancelledError:  # error: BG101
                pass

    def close(self):
        self.stopping = True


# Flagged: the canceller cancels first and sets the flag after, so the loop may test the flag
# before it is set.
class Listener:
    def __init__(self):
        self.running = True
        self.task = None

    async def listen(self, source):
        while self.running:
            try:
                await source.read()
            except asyncio.CancelledError:  # error: BG101
                pass

    def stop(self):
        self.task.cancel()
        self.running = False


# Not flagged: close() sets the flag, then has the loop's thread run a method of the class that
# cancels every task: the cancel still comes after the flag.
class Connector:
    def __init__(self, loop):
        self.loop = loop
        self.stopped = False

    async def start_client(self, client):
        while not self.stopped:
            try:
                await client.connect()
            except asyncio.CancelledError:
                pass

    def close(self):
        self.stopped = True
        asyncio.run_coroutine_threadsafe(self.cancel_all_tasks(), self.loop)

    async def cancel_all_tasks(self):
        for task in asyncio.all_tasks(self.loop):
            task.cancel()


# Flagged: the method that sets the flag calls one that cancels nothing; the cancel comes from
# elsewhere.
class Watcher:
    def __init__(self):
        self.stopped = False

    async def watch(self, source):
        while not self.stopped:
            try:
                await source.read()
            except asyncio.CancelledError:  # error: BG101
                pass

    def close(self):
        self.stopped = True
        self.log_closed()

    def log_closed(self):
        print("closed")


# Not flagged: the flag is tested at the top of the loop (`while True: if self.stopping: break`),
# which is the loop's condition written another way; shutdown() sets it before it cancels.
class ImportWorker:
    def __init__(self):
        self.stopping = False
        self.worker = None

    async def work(self, jobs):
        while True:
            if self.stopping:
                break
            try:
                await jobs.run_next()
            except asyncio.CancelledError:
                pass

    async def shutdown(self):
        self.stopping = True
        if self.worker:
            self.worker.cancel()


# Flagged: a test at the top that does not leave the loop is not its condition.
class Ticker:
    def __init__(self):
        self.stopping = False
        self.task = None

    async def tick(self, clock):
        while True:
            if self.stopping:
                print("stopping")
            try:
                await clock.wait()
            except asyncio.CancelledError:  # error: BG101
                pass

    def stop(self):
        self.stopping = True
        self.task.cancel()


# Not flagged: a handler that `continue`s goes to the loop's test as one that falls through does;
# stop() clears the flag before it cancels, so the loop ends there.
class Executor:
    def __init__(self, queue):
        self.queue = queue
        self.running = False
        self.worker = None

    async def work(self):
        while self.running:
            try:
                job = await self.queue.get()
            except asyncio.CancelledError:
                continue
            await job.run()

    async def stop(self):
        self.running = False
        if self.worker:
            self.worker.cancel()


# Flagged: `continue` in a loop whose flag nothing that cancels sets.
class Drainer:
    def __init__(self, queue):
        self.queue = queue
        self.running = True

    async def drain(self):
        while self.running:
            try:
                await self.queue.get()
            except asyncio.CancelledError:  # error: BG101
                continue

    def pause(self):
        self.running = False


# Not flagged: the loop's stop is an Event; disconnect() sets it before it cancels the task, so
# once the cancelled wait is swallowed the loop tests the event and ends.
class Watchdog:
    def __init__(self):
        self.stop_event = asyncio.Event()
        self.task = None

    async def watch(self, reconnect):
        while not self.stop_event.is_set():
            try:
                await reconnect()
            except asyncio.CancelledError:
                pass

    async def disconnect(self):
        self.stop_event.set()
        if self.task:
            self.task.cancel()


# Flagged: the method that cancels sets the event only afterwards.
class LateWatchdog:
    def __init__(self):
        self.stop_event = asyncio.Event()
        self.task = None

    async def watch(self, reconnect):
        while not self.stop_event.is_set():
            try:
                await reconnect()
            except asyncio.CancelledError:  # error: BG101
                pass

    def disconnect(self):
        self.task.cancel()
        self.stop_event.set()


# Not flagged: the workers are closures whose loop tests a `nonlocal` flag that the enclosing
# function sets before it cancels them; the cancelled query is dropped and the loop ends.
async def run_phase(queue, run_query, count):
    stopping = False

    async def worker():
        nonlocal stopping
        while not stopping:
            item = await queue.get()
            try:
                await run_query(item)
            except asyncio.CancelledError:
                pass

    workers = [asyncio.create_task(worker()) for _ in range(count)]
    try:
        await queue.join()
    finally:
        stopping = True
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)


# Flagged: the enclosing function cancels the workers without setting the flag first (its only
# assignment is the first value, which does not stop the loop).
async def run_phase_abruptly(queue, run_query, count):
    stopping = False

    async def worker():
        nonlocal stopping
        while not stopping:
            item = await queue.get()
            try:
                await run_query(item)
            except asyncio.CancelledError:  # error: BG101
                pass

    workers = [asyncio.create_task(worker()) for _ in range(count)]
    await queue.join()
    for task in workers:
        task.cancel()
