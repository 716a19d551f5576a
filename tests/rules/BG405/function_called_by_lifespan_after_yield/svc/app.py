from contextlib import asynccontextmanager
from fastapi import FastAPI
from svc.workers import stop_workers

@asynccontextmanager
async def lifespan(app):
    yield
    stop_workers()

app = FastAPI(lifespan=lifespan)
