# Not flagged: the helper runs only in the `finally:` of the session's coroutine; then it leaves.
import logging

log = logging.getLogger(__name__)


async def run_session(session):
    try:
        await session.exchange()
    finally:
        await close_session(session)


async def close_session(session):
    try:
        await session.goodbye()
    except BaseException:
        log.warning("goodbye failed")
