# Flagged: a generator run as a coroutine by its driver (which throws the cancellation in at the
# `yield`) swallows it and keeps going.
import asyncio


def poll_forever(source):
    while True:
        try:
            item = yield source.next_item()
            source.handle(item)
        except asyncio.CancelledError:  # error: BG105
            continue
