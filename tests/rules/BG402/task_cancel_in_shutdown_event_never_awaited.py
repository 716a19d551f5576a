# Flagged: task cancel in shutdown event never awaited.
from fastapi import FastAPI

app = FastAPI()

@app.on_event("shutdown")
async def stop():
    app.state.poller.cancel()  # error: BG402
