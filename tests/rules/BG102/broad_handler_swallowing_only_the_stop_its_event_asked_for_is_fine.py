# Not flagged: everything but the stop its event asked for is re-raised.
import asyncio


async def pump(channel, stop: asyncio.Event):
    try:
        await channel.forward()
    except BaseException:
        if stop.is_set():
            return
        raise
