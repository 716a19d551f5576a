# Not flagged: pools nothing in the project submits to or passes on: no work is ever in them
# (the library module multiprocessing.pool is no use of an attribute called pool).
# Flagged: the same pool once something submits to it.
import multiprocessing
from multiprocessing.pool import ThreadPool

SPARE = multiprocessing.Pool(2)
BUSY = multiprocessing.Pool(2)  # error: BG401


class Channel:
    def __init__(self):
        self.pool = ThreadPool(4)


def square_all(numbers):
    return BUSY.map(abs, numbers)
