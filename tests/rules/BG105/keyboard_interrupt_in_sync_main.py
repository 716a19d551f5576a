# Not flagged: keyboard interrupt in sync main.
import asyncio

async def serve():
    await asyncio.sleep(3600)

def main():
    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        print("interrupted, exiting")

if __name__ == "__main__":
    main()
