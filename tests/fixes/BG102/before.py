import asyncio
import logging

log = logging.getLogger(__name__)


async def refresh_exchange_rates(client, cache) -> None:
    while True:
        try:
            rates = await client.fetch_rates()
            await cache.store(rates)
        except BaseException:  # keep polling
            log.exception("rate refresh failed, retrying in 60 s")
        try:
            await client.ping()
        except:
            pass
        try:
            await client.flush()
        except Exception:
            log.exception("flush failed")
        except BaseException:  # the stops only: the right change is a re-raise, not offered as a fix
            log.warning("stopped while flushing")
        try:
            await client.close()
        except BaseException:  # noqa: BG102 - suppressed: neither reported nor fixed
            pass
        await asyncio.sleep(60)
