# Flagged: module level asyncio run.
import asyncio

async def main():
    while True:
        await outbox.commit()
        await asyncio.sleep(1)

asyncio.run(main())  # error: BG404
