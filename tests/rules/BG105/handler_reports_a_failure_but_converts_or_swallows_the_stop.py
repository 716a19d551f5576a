# Flagged: under the same test, the first handler chains the stop it caught, not the failure
# recorded before; the second returns instead of raising once a failure is recorded.
import asyncio
import logging

log = logging.getLogger(__name__)


class WorkerFailed(Exception):
    pass


async def watch(events, spawn, failures):
    failure = failures.first()
    try:
        async for event in events:
            await spawn(event)
    except asyncio.CancelledError as exc:  # error: BG105
        if failure is None:
            raise
        raise WorkerFailed("stopping") from exc


async def drain(events, failures):
    failure = failures.first()
    try:
        await events.drain()
    except asyncio.CancelledError:  # error: BG105
        if failure is not None:
            log.error("drain stopped after %s", failure)
            return
        raise
