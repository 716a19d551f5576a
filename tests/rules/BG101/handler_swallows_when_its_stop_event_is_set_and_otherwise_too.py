# Flagged (BG105): the handler tests its stop event, but swallows other cancellations too (it falls
# through when the event is not set, or returns when the event is not set).
import asyncio
import logging

log = logging.getLogger(__name__)


async def poll(source, stop: asyncio.Event):
    while not stop.is_set():
        try:
            await source.refresh()
        except asyncio.CancelledError:  # error: BG105
            if stop.is_set():
                return
            log.warning("refresh interrupted, polling again")
        await asyncio.sleep(5)


async def drain(source, stop: asyncio.Event):
    try:
        await source.flush()
    except asyncio.CancelledError:  # error: BG105
        if not stop.is_set():
            return
        raise


async def read_once(source, stop: asyncio.Event, retry):
    try:
        await source.read()
    except asyncio.CancelledError:  # error: BG105
        if retry or stop.is_set():
            return
        raise
