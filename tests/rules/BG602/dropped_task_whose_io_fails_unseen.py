# Flagged (BG602): a dropped task of a project coroutine that talks to other services (at least
# two library calls awaited, directly or through the project coroutines it awaits) and lets their
# errors out: nothing keeps the task, so its failure is never seen, and it can be collected mid-run.
# Reported as BG606 instead (not sure anything is lost): a coroutine that keeps its own errors, one
# that makes a single call, one that only pauses and puts, a method an override of which keeps its
# errors, and a call bgcheck cannot name. Not flagged at all: a task that is kept.
import asyncio
import atexit
import logging

import httpx

log = logging.getLogger(__name__)
background: set = set()


async def deliver_webhook(url: str, event: dict) -> None:
    async with httpx.AsyncClient(timeout=10) as client:
        response = await client.post(url, json=event)
    response.raise_for_status()


async def deliver_and_record(url: str, event: dict, db) -> None:
    await deliver_webhook(url, event)
    log.info("delivered %s", event["id"])


async def deliver_quietly(url: str, event: dict) -> None:
    try:
        await deliver_webhook(url, event)
    except Exception:
        log.exception("webhook failed")


async def ping(url: str) -> None:
    await httpx.AsyncClient().get(url)


async def pause_then_queue(queue: asyncio.Queue, item) -> None:
    await asyncio.sleep(1)
    await queue.put(item)


class Notifier:
    async def notify(self, url: str, event: dict) -> None:
        await deliver_webhook(url, event)


class QuietNotifier(Notifier):
    async def notify(self, url: str, event: dict) -> None:
        try:
            await deliver_webhook(url, event)
        except Exception:
            log.exception("notify failed")


class AuditTrail:
    async def write_audit_entries(self, entries: list) -> None:
        async with httpx.AsyncClient() as client:
            await client.post("https://audit.example/entries", json=entries)


def on_order_paid(order: dict, url: str) -> None:
    asyncio.create_task(deliver_webhook(url, order))  # error: BG602
    asyncio.ensure_future(deliver_and_record(url, order, None))  # error: BG602
    asyncio.create_task(deliver_quietly(url, order))  # error: BG606
    asyncio.create_task(ping(url))  # error: BG606
    task = asyncio.create_task(deliver_webhook(url, order))
    background.add(task)
    task.add_done_callback(background.discard)


def on_refund(notifier: Notifier, trail, queue, order: dict, url: str) -> None:
    asyncio.create_task(notifier.notify(url, order))  # error: BG606
    asyncio.create_task(trail.write_audit_entries([order]))  # error: BG602
    asyncio.create_task(pause_then_queue(queue, order))  # error: BG606


def flush_on_exit(url: str) -> None:
    # atexit runs after the event loop has stopped: there is no loop to lose the task in
    asyncio.get_event_loop().create_task(deliver_webhook(url, {"event": "exit"}))  # error: BG606


atexit.register(flush_on_exit, "https://hooks.example/exit")
