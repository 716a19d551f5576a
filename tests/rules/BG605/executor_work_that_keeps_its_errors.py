import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from functools import partial, wraps
from typing import Callable

log = logging.getLogger(__name__)
pool = ThreadPoolExecutor(max_workers=4)


def send_webhook(url, payload):
    """Delivers one webhook; a failure is logged here, never raised."""
    try:
        post(url, payload)
    except Exception:
        log.exception("webhook to %s failed", url)


def record_batch(batch):
    try:
        store(batch)
    except Exception as error:
        batch.error = error
    finally:
        batch.done.set()


def send_webhook_loudly(url, payload):
    try:
        post(url, payload)
    except Exception:
        log.exception("webhook to %s failed", url)
        raise  # the error goes into the future, which nobody reads


def send_webhook_partly(url, payload):
    try:
        post(url, payload)
    except ConnectionError:
        log.warning("webhook to %s failed", url)  # any other error goes into the future


def prepare_then_send(url, payload):
    body = encode(payload)  # can raise before the try
    try:
        post(url, body)
    except Exception:
        log.exception("webhook to %s failed", url)


def notify(url, payload, batch):
    # Not flagged: the executor holds the future, and no exception can leave these functions.
    pool.submit(send_webhook, url, payload)
    pool.submit(partial(record_batch, batch))
    asyncio.get_running_loop().run_in_executor(None, send_webhook, url, payload)
    # Flagged: an exception of these reaches the future, and nothing reads it.
    pool.submit(send_webhook_loudly, url, payload)  # error: BG605
    pool.submit(send_webhook_partly, url, payload)  # error: BG605
    pool.submit(prepare_then_send, url, payload)  # error: BG605


async def handle(url, payload):
    # Flagged: a dropped task can be collected mid-run, whatever its coroutine catches.
    asyncio.create_task(deliver(url, payload))  # error: BG606


async def deliver(url, payload):
    try:
        await apost(url, payload)
    except Exception:
        log.exception("webhook to %s failed", url)


def post(url, payload): ...
def store(batch): ...
def encode(payload): ...
async def apost(url, payload): ...


def build_runner(func, logger) -> Callable[[], None]:
    """Wraps a listener so that its errors are logged (the annotation names no class)."""

    @wraps(func)
    def run_logged():
        try:
            func()
        except Exception as error:
            logger.error("listener failed: %s", error)

    return run_logged


def build_plain_runner(func):
    def run():
        func()

    return run


def start_listeners(listener):
    # Not flagged: the executor runs what the factory returns, which keeps its errors.
    pool.submit(build_runner(listener, log))
    # Flagged: what this factory returns lets the listener's error into the future.
    pool.submit(build_plain_runner(listener))  # error: BG605
