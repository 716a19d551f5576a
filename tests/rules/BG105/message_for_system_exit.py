# Flagged: message for system exit (the SIGTERM handler raises SystemExit).
import asyncio
import signal


def stop(signum, frame):
    raise SystemExit(0)


async def worker():
    signal.signal(signal.SIGTERM, stop)
    try:
        await asyncio.sleep(1)
    except SystemExit:  # error: BG105
        pass
    await asyncio.sleep(1)  # and the coroutine carries on
