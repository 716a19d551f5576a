# Not flagged: gather under a deadline.
import asyncio
from fastapi import FastAPI

app = FastAPI()
TASKS = set()

@app.on_event("shutdown")
async def on_shutdown():
    await asyncio.wait_for(asyncio.gather(*TASKS), timeout=10)
    async with asyncio.timeout(10):
        await asyncio.gather(*TASKS)
