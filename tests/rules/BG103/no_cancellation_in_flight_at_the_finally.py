# Not flagged: no cancellation can be in flight when the `finally:` runs. The try only awaits a
# project coroutine that never suspends; or its clause takes CancelledError and never raises, so
# a cancellation of the body ends there, and that clause does not wait.
# Flagged: the clause re-raises; the clause itself waits; the `else:` block waits. (The clauses
# that swallow the cancellation are BG105's.)
import asyncio


class Telemetry:
    async def track(self, request):
        self.last = request.url  # no await: never suspends


async def track_requests(request, call_next, telemetry: Telemetry):
    response = None
    try:
        await telemetry.track(request)
    finally:
        return response


async def run_conversation(agent):
    result = {}
    try:
        result = await agent.run()
    except asyncio.CancelledError:  # error: BG105
        result["cancelled"] = True
    finally:
        return result


async def run_and_reraise(agent):
    result = {}
    try:
        result = await agent.run()
    except asyncio.CancelledError:
        result["cancelled"] = True
        raise
    finally:
        return result  # error: BG103


async def run_and_report(agent, log):
    result = {}
    try:
        result = await agent.run()
    except asyncio.CancelledError:  # error: BG105
        await log.write("cancelled")
    finally:
        return result  # error: BG103


async def run_then_save(agent, store):
    result = {}
    try:
        result = agent.prepare()
    except ValueError:
        result = {}
    else:
        await store.save(result)
    finally:
        return result  # error: BG103
