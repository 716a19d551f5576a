# Flagged: the helper also runs in the session's loop, which keeps going after it swallows the stop.
import logging

log = logging.getLogger(__name__)


async def run_sessions(pool):
    try:
        while True:
            session = await pool.next()
            await close_pooled_session(session)
    finally:
        await close_pooled_session(pool.current)


async def close_pooled_session(session):
    try:
        await session.goodbye()
    except BaseException:  # error: BG102
        log.warning("goodbye failed")
