# Not flagged: plain (not async) code never has a cancellation delivered to it: asyncio throws one
# only into a coroutine where it suspends. Here it is raised by the callback being run, as that
# callback's outcome ("treat as cancelled"), and the runner goes on to the next callback.
import asyncio
import logging

log = logging.getLogger(__name__)


def run_callbacks(callbacks):
    for callback in callbacks:
        try:
            callback()
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("callback %r failed", callback)
