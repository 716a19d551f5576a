# Flagged: pool terminate without close and join.
import multiprocessing

POOL = multiprocessing.Pool(4)

def stop():
    POOL.terminate()  # error: BG402

def closed_but_not_joined():
    POOL.close()
    POOL.terminate()  # error: BG402
    POOL.join()

def joined_only_after():
    POOL.terminate()  # error: BG402
    POOL.close()
    POOL.join()
