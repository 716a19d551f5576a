# Not flagged: since PEP 475 Python retries a system call a signal interrupts, and a signal
# handler that wants the worker to stop raises its own exception: InterruptedError carries no
# stop request, in a loop or not.
import asyncio
import os


def read_byte(fd):
    try:
        return os.read(fd, 1)
    except InterruptedError:
        return b""


async def poll(fd):
    while True:
        try:
            data = os.read(fd, 1)
        except InterruptedError:
            continue
        await asyncio.sleep(0)
        return data
