# BG101 reports a task's own cancellation caught inside a loop of the coroutine by a handler
# that lets the loop go round again: the task keeps working after it was asked to stop.
import asyncio
import contextlib

import anyio
import trio


async def relay(reader, writer):
    while True:
        try:
            data = await reader.read(1024)
        except asyncio.CancelledError:  # error: BG101
            data = b""
        if data:
            await writer.write(data)


async def forward(source, sink):
    async for item in source:
        try:
            await sink.send(item)
        except trio.Cancelled:  # error: BG101
            continue


async def pump(stream):
    while True:
        try:
            await stream.receive()
        except anyio.get_cancelled_exc_class():  # error: BG101
            pass


async def heartbeat(client):
    while True:
        with contextlib.suppress(asyncio.CancelledError):  # error: BG101
            await client.ping()
        await asyncio.sleep(10)


# Not BG101 (BG105 reports it): outside a loop the coroutine returns, and whether work goes on
# depends on its callers.
async def fetch(client):
    try:
        return await client.get()
    except asyncio.CancelledError:  # error: BG105
        return None


# Not BG101 (BG105 reports it): the handler leaves the loop.
async def listen(source, handle):
    while True:
        try:
            handle(await source.get())
        except asyncio.CancelledError:  # error: BG105
            break
    await source.close()


# Not BG101 (BG105 reports it): a loop that awaits asyncio.shield() waits for its cleanup
# through repeated cancels; the loop ends when the shielded work is done.
async def finish(task):
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:  # error: BG105
            continue
    return task.result()


# Not BG101 (BG105 reports it): Ctrl-C in a coroutine's loop is the program's stop signal,
# which the program's own protocol may honour elsewhere.
async def serve(server):
    while True:
        try:
            await server.handle_one()
        except KeyboardInterrupt:  # error: BG105
            server.log("interrupted")


# Not BG101 (BG105 reports it): the handler leaves once the worker's stop event is set, so a stop
# asked through the event ends the loop; a cancel without it goes round again, which depends on
# who cancels.
class Upkeep:
    def __init__(self):
        self.event = asyncio.Event()

    async def poll(self, func):
        while not self.event.is_set():
            try:
                await func()
            except (Exception, asyncio.CancelledError):  # error: BG105
                if self.event.is_set():
                    return
                print("upkeep failed")
            await asyncio.sleep(1)


# Not BG101 (BG105 reports it): the same with a plain flag the enclosing function sets before it
# cancels the flusher.
async def run_recorder(queue, flush):
    stopping = False

    async def flush_periodically():
        while True:
            try:
                await asyncio.sleep(1)
                await flush(queue)
            except asyncio.CancelledError:  # error: BG105
                if stopping:
                    return
                print("flush cancelled by the driver; continuing")

    task = asyncio.create_task(flush_periodically())
    await queue.join()
    stopping = True
    task.cancel()


# BG101: the flag the handler tests is set by nobody else: the loop goes round again.
async def poll_forever(fetch):
    done = False
    while True:
        try:
            await fetch()
        except asyncio.CancelledError:  # error: BG101
            if done:
                return


# BG105, not BG101: once the handler falls through, the code after its `try` leaves the loop (the
# loop is there to retry the setup that raises AttributeError, not to serve again).
class Server:
    async def start(self):
        while True:
            try:
                if hasattr(self.server, "serve_forever"):
                    try:
                        await self.server.serve_forever()
                    except asyncio.CancelledError:  # error: BG105
                        pass
                await self.server.wait_closed()
                break
            except AttributeError:
                await asyncio.sleep(0.1)

    # BG101: a `continue` before the leaving statement sends the loop round again.
    async def serve(self):
        while True:
            try:
                await self.server.serve_forever()
            except asyncio.CancelledError:  # error: BG101
                pass
            if self.restart:
                continue
            break
