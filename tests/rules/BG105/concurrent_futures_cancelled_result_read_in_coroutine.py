# Flagged: a coroutine reads a pool future's result and counts a cancelled one as an empty result.
import concurrent.futures


async def thumbnail_sizes(futures):
    sizes = []
    for future in futures:
        try:
            sizes.append(future.result())
            await report_progress(len(sizes))
        except concurrent.futures.CancelledError:  # error: BG105
            sizes.append(0)
    return sizes


async def report_progress(count):
    return count
