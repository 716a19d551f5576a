import asyncio
from contextlib import asynccontextmanager
from fastapi import FastAPI

async def connect():
    pass

@asynccontextmanager
async def lifespan(app):
    await asyncio.wait_for(connect(), timeout=25)
    yield
    await asyncio.sleep(20)

app = FastAPI(lifespan=lifespan)
