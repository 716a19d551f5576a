# Not flagged: the project's own clock functions (an alias chosen per platform, a function that
# returns a clock reading) are clocks; a loop that compares one has its deadline in its condition.
import sys
import time


class _SteadyClock:
    def __init__(self, base):
        self.base = base
        self.offset = 0.0

    def read(self) -> float:
        reading = time.perf_counter()
        reading += self.offset
        return reading


if sys.platform == "win32":
    now = _SteadyClock(time.time).read
else:
    now = time.time


def steady_seconds():
    return time.monotonic()


def items_processed(stats):
    return stats.count()
