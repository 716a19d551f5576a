# Flagged: on event shutdown gather.
import asyncio
from fastapi import FastAPI

app = FastAPI()
TASKS = set()

@app.on_event("shutdown")
async def on_shutdown():
    await asyncio.gather(*TASKS)  # error: BG405
    await asyncio.wait_for(asyncio.gather(*TASKS), None)  # error: BG405
