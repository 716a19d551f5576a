import asyncio
import logging

log = logging.getLogger(__name__)


async def fetch_rates(client) -> dict:
    try:
        rates = await client.get_json("/rates")
    except asyncio.CancelledError:
        log.info("rate fetch cancelled")
        rates = {}
    return rates


async def fetch_fees(client) -> dict:
    try:
        return await client.get_json("/fees")
    except asyncio.CancelledError:
        log.info("fee fetch cancelled")
        return {}  # not offered: the return would skip a re-raise at the end


async def refresh(client, cache) -> None:
    cache.replace_all(await fetch_rates(client), await fetch_fees(client))
