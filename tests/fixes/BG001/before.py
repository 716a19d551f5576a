import asyncio
import logging

log = logging.getLogger(__name__)


async def refresh_exchange_rates(client, cache) -> None:
    while True:
        try:
            rates = await client.fetch_rates()  # noqa: E501, BG102
            await cache.store(rates)
        except Exception:  # noqa: BG102
            log.exception("rate refresh failed, retrying in 60 s")
        try:
            await client.ping()
        except BaseException:  # noqa: BG102, BG999 - the second code is a typo
            pass
        try:
            await client.flush()  # type: ignore[attr-defined]  # noqa: BG102
        except BaseException:  # noqa
            pass
        await asyncio.sleep(60)  # noqa: BG102, BG001 - kept: BG001 is listed
