# Not flagged: lifespan code before yield.
import asyncio
import threading
from contextlib import asynccontextmanager
from fastapi import FastAPI

TASKS = set()
WARMUP = threading.Thread(target=print)

@asynccontextmanager
async def lifespan(app):
    WARMUP.start()
    WARMUP.join()
    await asyncio.gather(*TASKS)
    yield

app = FastAPI(lifespan=lifespan)
