# Flagged: from import with alias.
import asyncio
from asyncio import CancelledError as Stop

async def worker():
    try:
        await asyncio.sleep(1)
    except Stop:  # error: BG105
        pass
