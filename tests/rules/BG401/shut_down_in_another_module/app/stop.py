from app import pools
from app.pools import EXECUTOR

def stop():
    EXECUTOR.shutdown(wait=True)
    pools.POOL.close()
    pools.POOL.join()
    pools.SCHEDULER.shutdown()
