# Flagged: Ctrl-C caught in a coroutine that then carries on with more work.
# Not flagged: the coroutine's outermost handler before its `finally:` runs the shutdown, and the
# coroutine returns once it is done: the program's graceful stop, as around main().
import asyncio

async def worker():
    try:
        await asyncio.sleep(1)
    except KeyboardInterrupt:  # error: BG105
        pass
    await asyncio.sleep(1)


async def run_headless(core, log):
    try:
        while True:
            await asyncio.sleep(1)
    except KeyboardInterrupt:
        log.info("Shutdown requested...")
    finally:
        await core.shutdown()


async def serve_until_interrupted(server):
    try:
        await server.serve_forever()
    except KeyboardInterrupt:
        return None
    finally:
        server.close()
    return None


async def poll_until_interrupted(source, log):
    # Inside the loop, the handler goes round again: flagged.
    while True:
        try:
            await source.poll()
        except KeyboardInterrupt:  # error: BG105
            log.info("ignored")
