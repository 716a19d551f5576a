# Not flagged: loop add signal handler.
import asyncio
import signal

async def main():
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    while True:
        await asyncio.sleep(1)

asyncio.run(main())
