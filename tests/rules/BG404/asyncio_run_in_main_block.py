# Flagged: asyncio run in main block.
import asyncio

async def main():
    while True:
        await outbox.commit()
        await asyncio.sleep(1)

if __name__ == "__main__":  # error: BG404
    asyncio.run(main())
