# Flagged: task cancel in sigterm handler never awaited.
import asyncio
import signal

TASKS = set()

def on_term():
    for task in TASKS:
        task.cancel()  # error: BG402

async def main():
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, on_term)
    await asyncio.sleep(100)
