# Not flagged: cancel then bounded wait or gather.
import asyncio
from fastapi import FastAPI

app = FastAPI()
TASKS = set()

@app.on_event("shutdown")
async def stop():
    for task in TASKS:
        task.cancel()
    await asyncio.wait(TASKS, timeout=5)

@app.on_event("shutdown")
async def stop_gathered():
    for task in TASKS:
        task.cancel()
    await asyncio.gather(*TASKS, return_exceptions=True)  # error: BG405

@app.on_event("shutdown")
async def stop_one():
    app.state.poller.cancel()
    await app.state.poller
