# Not flagged: a line where the maintainers silenced ruff's RUF006 (asyncio-dangling-task), the
# same check as BG602: they have judged that dropped task already. Flagged: the same call with no
# such comment, or with another of ruff's codes.
import asyncio


async def heartbeat(client):
    await client.ping()


async def start(client):
    asyncio.create_task(heartbeat(client))  # noqa: RUF006
    asyncio.ensure_future(heartbeat(client))  # noqa: E501, RUF006
    asyncio.create_task(heartbeat(client))  # error: BG606
    asyncio.create_task(heartbeat(client))  # noqa: E501  # error: BG606
