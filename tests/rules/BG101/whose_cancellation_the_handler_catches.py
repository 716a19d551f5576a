# BG101 is the sure case: the try awaits a coroutine called right there (or a task no one else
# holds), so the CancelledError caught is the running task's own, and a handler that only logs or
# passes sends the loop round again. BG105 takes the rest, where the handler may be there for
# another task's cancellation (an awaited task or future that others hold, through wait_for,
# shield or gather too), or where the project's own protocol decides what the stop does next (a
# re-raise on a flag of the canceller's, a flag the loop reads to leave).
import asyncio
import logging

log = logging.getLogger(__name__)


class Session:
    def __init__(self, socket):
        self.socket = socket
        self.reply = None
        self.workers = []
        self.fallback_requested = False

    # BG105: the turns are tasks that whoever queued them may cancel to stop one turn.
    async def run_turns(self, turns: asyncio.Queue):
        while True:
            turn = await turns.get()
            try:
                await turn
            except asyncio.CancelledError:  # error: BG105
                log.info("turn interrupted")

    # BG105: a future others can cancel, awaited through wait_for.
    async def wait_replies(self):
        while True:
            try:
                await asyncio.wait_for(self.reply, 5)
            except asyncio.CancelledError:  # error: BG105
                pass

    # BG105: gather raises the CancelledError of a worker someone else cancelled.
    async def supervise(self):
        while True:
            try:
                await asyncio.gather(*self.workers)
            except asyncio.CancelledError:  # error: BG105
                log.info("a worker was cancelled")

    # BG101: gather of coroutines called right there: only the running task's cancel reaches them.
    async def refresh(self):
        while True:
            try:
                await asyncio.gather(self.socket.ping(), self.socket.flush())
            except asyncio.CancelledError:  # error: BG101
                pass
            await asyncio.sleep(5)

    # BG101: a task the coroutine makes and keeps to itself; only its own cancel cancels it.
    async def fetch_all(self):
        while True:
            fetch = asyncio.create_task(self.socket.fetch())
            try:
                await fetch
            except asyncio.CancelledError:  # error: BG101
                log.info("fetch cancelled")

    # BG101: wait_for around a call.
    async def read_frames(self):
        while True:
            try:
                await asyncio.wait_for(self.socket.recv(), 30)
            except asyncio.CancelledError:  # error: BG101
                log.info("read cancelled")

    # BG105: the handler re-raises unless the canceller asked for a fallback first.
    async def stream(self):
        while True:
            try:
                await self.socket.stream()
            except asyncio.CancelledError:  # error: BG105
                if not self.fallback_requested:
                    raise

    def switch_to_fallback(self, task):
        self.fallback_requested = True
        task.cancel()

    # BG105: the handler records the stop, and the loop leaves on it after a pause.
    async def replay(self):
        while True:
            failed = False
            try:
                await self.socket.replay()
            except asyncio.CancelledError:  # error: BG105
                failed = True
            await asyncio.sleep(1)
            if failed:
                break

    # BG101: the future of an executor call the coroutine keeps to itself, awaited through shield.
    async def export(self, rows):
        loop = asyncio.get_running_loop()
        job = None
        while True:
            job = loop.run_in_executor(None, self.socket.write_rows, rows)
            try:
                await asyncio.wait_for(asyncio.shield(job), 5)
            except (asyncio.TimeoutError, asyncio.CancelledError):  # error: BG101
                log.info("export still running")

    # BG105: after a cancel the loop only drains what is already queued, then returns.
    async def forward(self, events):
        stopping = False
        while True:
            try:
                event = events.get_nowait() if stopping else await events.get()
            except asyncio.CancelledError:  # error: BG105
                stopping = True
                continue
            except asyncio.QueueEmpty:
                return
            await self.socket.send(event)


class Agent:
    def __init__(self, socket):
        self.socket = socket

    async def run(self):
        await self.socket.send("hello")
        listen = asyncio.create_task(self.socket.listen())
        asyncio.get_running_loop().call_later(30, self.check_ping, listen)
        await listen

    def check_ping(self, listen):
        listen.cancel()  # the backend went silent: restart

    # BG105: run() awaits a task it handed to a watchdog that cancels it; the CancelledError
    # may be that task's, the agent's restart signal.
    async def restart_on_cancel(self):
        while True:
            try:
                await self.run()
            except asyncio.CancelledError:  # error: BG105
                log.info("restarting the agent")
