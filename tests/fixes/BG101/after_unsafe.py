import asyncio
import logging

log = logging.getLogger(__name__)


async def drain(queue, sink) -> None:
    while True:
        item = await queue.get()
        try:
            await sink.write(item)
        except asyncio.CancelledError:
            raise
        try:
            await sink.flush()
        except asyncio.CancelledError:
            log.info("flush cancelled")  # then carry on
            if sink.dirty:
                sink.mark_lost()
            raise
        try:
            await sink.sync()
        except (asyncio.CancelledError, OSError):  # not offered: a re-raise would re-raise OSError too
            log.warning("sync failed")
        try:
            await sink.close()
        except asyncio.CancelledError:
            log.info("close cancelled")
            return  # not offered: the return would skip a re-raise at the end
