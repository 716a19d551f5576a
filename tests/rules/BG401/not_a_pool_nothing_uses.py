# Not flagged: a pool nothing in the project submits to or passes on: no work is ever in it.
# Flagged: the same pool once something submits to it.
import multiprocessing

SPARE = multiprocessing.Pool(2)
BUSY = multiprocessing.Pool(2)  # error: BG401


def square_all(numbers):
    return BUSY.map(abs, numbers)
