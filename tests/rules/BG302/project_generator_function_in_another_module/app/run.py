from concurrent.futures import ThreadPoolExecutor
from app import source
from app.source import pending_orders

EXECUTOR = ThreadPoolExecutor(max_workers=8)

def run(db, handle):
    list(EXECUTOR.map(handle, pending_orders(db)))  # error: BG302
    list(EXECUTOR.map(handle, source.pending_orders(db)))  # error: BG302
