# Not flagged: terminate after close and join.
import multiprocessing

POOL = multiprocessing.Pool(4)

def stop():
    POOL.close()
    POOL.join()
    POOL.terminate()
