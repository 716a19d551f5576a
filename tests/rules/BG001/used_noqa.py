# Not flagged: each `# noqa` here silences a finding, or lists another tool's code, or is bare.
import asyncio


async def worker(queue):
    try:
        await queue.get()
    except:  # noqa: BG102
        pass


def long_line():  # noqa: E501
    return 1


def bare():  # noqa
    return 2
