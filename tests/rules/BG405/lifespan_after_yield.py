# Flagged: lifespan after yield.
import asyncio
import threading
from contextlib import asynccontextmanager
from fastapi import FastAPI

TASKS = set()
WORKER = threading.Thread(target=print)

@asynccontextmanager
async def lifespan(app):
    WORKER.start()
    yield
    await asyncio.gather(*TASKS)  # error: BG405
    WORKER.join()  # error: BG405

app = FastAPI(lifespan=lifespan)
