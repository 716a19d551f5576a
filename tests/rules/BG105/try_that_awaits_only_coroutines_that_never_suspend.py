# Not flagged: the try only iterates a project async generator that never awaits, and awaits a
# project coroutine that never suspends: no cancellation can arrive inside it (a cancellation is
# delivered where the coroutine waits, here the `async for` over the stream outside the try), so the
# handler never takes a stop.
# Flagged: the same handler once what the try iterates awaits something (the stop can land there).
import asyncio
import logging

log = logging.getLogger(__name__)


class StreamInterface:
    def __init__(self):
        self.seen = 0

    async def _process_event(self, event):
        self.seen += 1
        yield {"type": "chunk", "data": event}

    async def _note(self, message):
        self.last = message

    async def _process_slowly(self, event):
        await asyncio.sleep(0)
        yield {"type": "chunk", "data": event}

    async def process(self, stream):
        async for event in stream:
            try:
                async for message in self._process_event(event):
                    await self._note(message)
                    yield message
            except asyncio.CancelledError:
                log.info("stream cancelled")
                return

    async def process_slowly(self, stream):
        async for event in stream:
            try:
                async for message in self._process_slowly(event):
                    yield message
            except asyncio.CancelledError:  # error: BG105
                log.info("stream cancelled")
                return
