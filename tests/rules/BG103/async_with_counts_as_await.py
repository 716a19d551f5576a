# Flagged: async with counts as await.
async def worker(lock):
    try:
        async with lock:
            pass
    finally:
        return None  # error: BG103
