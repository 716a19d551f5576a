# Not flagged: the handler swallows the cancellation only when its stop future says this stream
# was asked to stop (it then ends), and re-raises every other cancellation.
import asyncio


async def follow(feed, stopper: asyncio.Future):
    try:
        batch = await feed.read()
    except asyncio.CancelledError:
        if stopper is not None and stopper.done():
            return None
        raise
    return batch


async def tail(feed, stop: asyncio.Event):
    while True:
        try:
            line = await feed.readline()
        except asyncio.CancelledError:
            feed.close()
            if stop.is_set():
                return
            else:
                raise
        print(line)
