import asyncio
from contextlib import asynccontextmanager
from fastapi import FastAPI
from svc.workers import start_workers, stop_workers

@asynccontextmanager
async def lifespan(app):  # error: BG406
    start_workers()
    yield
    stop_workers()
    await asyncio.sleep(20)

app = FastAPI(lifespan=lifespan)
