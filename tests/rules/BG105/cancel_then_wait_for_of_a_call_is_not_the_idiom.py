# Flagged: cancel then wait for of a call is not the idiom.
import asyncio

async def stop(task, client):
    task.cancel()
    try:
        await asyncio.wait_for(client.close(), timeout=5)
    except asyncio.CancelledError:  # error: BG105
        pass
