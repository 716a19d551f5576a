# Not flagged: handler calls sys exit.
import asyncio
import sys

async def worker():
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        print("stopping")
        sys.exit(1)
